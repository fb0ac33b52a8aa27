import { StatisticsInputError } from './errors.js';
import { pearson } from './pearson.js';
import { averageRanks } from './ranks.js';

/**
 * Spearman's rank correlation rho (Spearman 1904): Pearson's r of the
 * values' ranks, ties given their average rank, as SciPy's `spearmanr`.
 * `null` with fewer than two pairs or when either side's ranks do not vary.
 *
 * @example
 * ```ts
 * spearman([1, 2, 3, 4], [1, 3, 2, 4]); // 0.8
 * spearman([1, 2, 2, 3], [3, 2, 2, 1]); // -1
 * ```
 */
export function spearman(first: ArrayLike<number>, second: ArrayLike<number>): number | null {
  if (first.length !== second.length) {
    throw new StatisticsInputError(
      `spearman: ${first.length} values paired with ${second.length}; expected one of each per item`,
    );
  }
  return pearson(averageRanks(first), averageRanks(second));
}
