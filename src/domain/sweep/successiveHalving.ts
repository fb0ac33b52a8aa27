import type { RungEntry } from './types.js';

/**
 * The trials successive halving stops at a rung of `n` entries: it keeps
 * `max(1, ceil(n / eta))` of them. One objective: every prunable trial
 * ranked below the kept ones. Several: only trials some other entry
 * dominates (Pareto rank > 0), at most `n - keep` of them, worst rank first,
 * then higher index first, so a rung of mutually non-dominated trials keeps
 * them all. A trial that is not `prunable` is never stopped, but it takes
 * its place in `n` and in the ranking.
 *
 * @example
 * ```ts
 * // ranking [3, 1, 0, 2] (best first), eta 2: keep 2
 * halvingPruned(entries, [3, 1, 0, 2], new Map(), 2, 1); // [0, 2]
 * ```
 */
export function halvingPruned(
  entries: readonly RungEntry[],
  ranking: readonly number[],
  ranks: ReadonlyMap<number, number>,
  eta: number,
  objectiveCount: number,
): number[] {
  const keep = Math.max(1, Math.ceil(entries.length / eta));
  const prunable = new Set(entries.filter((entry) => entry.prunable).map((entry) => entry.trial));
  if (objectiveCount === 1) return ranking.slice(keep).filter((trial) => prunable.has(trial));
  return [...prunable]
    .filter((trial) => ranks.get(trial)! > 0)
    .sort((a, b) => ranks.get(b)! - ranks.get(a)! || b - a)
    .slice(0, Math.max(0, entries.length - keep));
}
