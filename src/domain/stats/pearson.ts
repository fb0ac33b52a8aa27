import { StatisticsInputError } from './errors.js';

/**
 * Pearson's product-moment correlation r (Pearson 1895) of paired values,
 * as SciPy's `pearsonr`: centred first, so large offsets lose no precision.
 * `null` with fewer than two pairs or when either side does not vary.
 *
 * @example
 * ```ts
 * pearson([1, 2, 3], [2, 4, 7]); // 0.9933992677987828
 * pearson([1, 1, 1], [2, 4, 7]); // null
 * ```
 */
export function pearson(first: ArrayLike<number>, second: ArrayLike<number>): number | null {
  if (first.length !== second.length) {
    throw new StatisticsInputError(
      `pearson: ${first.length} values paired with ${second.length}; expected one of each per item`,
    );
  }
  const count = first.length;
  if (count < 2) return null;
  let firstMean = 0;
  let secondMean = 0;
  for (let i = 0; i < count; i++) {
    firstMean += first[i]!;
    secondMean += second[i]!;
  }
  firstMean /= count;
  secondMean /= count;
  let products = 0;
  let firstSquares = 0;
  let secondSquares = 0;
  for (let i = 0; i < count; i++) {
    const a = first[i]! - firstMean;
    const b = second[i]! - secondMean;
    products += a * b;
    firstSquares += a * a;
    secondSquares += b * b;
  }
  if (firstSquares === 0 || secondSquares === 0) return null;
  const r = products / Math.sqrt(firstSquares * secondSquares);
  return Math.max(-1, Math.min(1, r));
}
