import { addToSum, emptySum, meanOfSum } from '../shared/mean.js';
import { StatisticsInputError } from './errors.js';

/**
 * The mean absolute difference of paired values, Σ |a_i − b_i| / n (the
 * mean absolute error of Willmott & Matsuura 2005), with a compensated sum;
 * `null` for no pairs.
 *
 * @example
 * ```ts
 * meanAbsoluteDifference([0.9, 0.2, 0.5], [1, 0, 0.5]); // 0.09999999999999999
 * ```
 */
export function meanAbsoluteDifference(
  first: ArrayLike<number>,
  second: ArrayLike<number>,
): number | null {
  if (first.length !== second.length) {
    throw new StatisticsInputError(
      `mean absolute difference: ${first.length} values paired with ${second.length}; expected one of each per item`,
    );
  }
  const total = emptySum();
  for (let i = 0; i < first.length; i++) addToSum(total, Math.abs(first[i]! - second[i]!));
  return meanOfSum(total);
}
