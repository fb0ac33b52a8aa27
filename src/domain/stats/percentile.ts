/**
 * The `q`-th percentile (0-100) of sorted values by linear interpolation
 * between the closest ranks (Hyndman & Fan 1996, type 7: numpy's default).
 * `sorted` must be in ascending order and not empty.
 *
 * @example
 * ```ts
 * percentileOfSorted([1, 2, 3, 4], 50); // 2.5
 * percentileOfSorted([1, 2, 3, 4], 2.5); // 1.075
 * ```
 */
export function percentileOfSorted(sorted: ArrayLike<number>, q: number): number {
  const position = ((sorted.length - 1) * q) / 100;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  const low = sorted[below]!;
  const high = sorted[above]!;
  return low + (high - low) * (position - below);
}
