/**
 * A running sum that keeps the low-order bits each addition loses
 * (Kahan-Babuska-Neumaier, what SQLite's `AVG` does since 3.43), so a mean
 * does not depend on how large the values are next to each other.
 */
export interface CompensatedSum {
  count: number;
  sum: number;
  /** The low-order bits the running sum lost. */
  error: number;
}

/**
 * An empty sum, to {@link addToSum} into.
 *
 * @example
 * ```ts
 * const sum = emptySum();
 * for (const value of [0.5, 1.5]) addToSum(sum, value);
 * meanOfSum(sum); // 1
 * ```
 */
export function emptySum(): CompensatedSum {
  return { count: 0, sum: 0, error: 0 };
}

/** Add one value to a sum (in place). */
export function addToSum(total: CompensatedSum, value: number): void {
  const next = total.sum + value;
  total.error +=
    Math.abs(total.sum) > Math.abs(value) ? total.sum - next + value : value - next + total.sum;
  total.sum = next;
  total.count += 1;
}

/** The mean of the values added, `null` for none. */
export function meanOfSum(total: CompensatedSum): number | null {
  if (total.count === 0) return null;
  return (total.sum + (Number.isFinite(total.error) ? total.error : 0)) / total.count;
}

/**
 * The mean of `values` in their order, with a compensated sum: every mean
 * arena reports of stored returns is this one, so the same rows give the same
 * number to the bit whichever store holds them.
 *
 * @example
 * ```ts
 * mean([1e16, 1, -1e16]); // 0.3333333333333333 (a plain sum loses the 1: 0)
 * mean([]); // null
 * ```
 */
export function mean(values: Iterable<number>): number | null {
  const total = emptySum();
  for (const value of values) addToSum(total, value);
  return meanOfSum(total);
}
