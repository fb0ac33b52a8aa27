import { binomialCdf } from './distributions.js';
import { StatisticsInputError } from './errors.js';

/** McNemar's exact test of a paired 2x2 table: its statistic and two-sided p-value. */
export interface McNemarTest {
  /** The smaller discordant count, min(b, c). */
  readonly statistic: number;
  readonly pValue: number;
}

/**
 * McNemar's exact test (McNemar 1947): under no difference, each of the b + c
 * discordant pairs (passed in one run, not in the other) goes either way with
 * probability 1/2, so p = min(1, 2 · P(Binomial(b + c, 1/2) <= min(b, c))),
 * as statsmodels' `mcnemar(table, exact=True)`. The concordant pairs do not
 * enter. With no discordant pair p is 1.
 *
 * @throws StatisticsInputError for counts that are not non-negative integers.
 * @example
 * ```ts
 * mcnemarExact(3, 9); // { statistic: 3, pValue: 0.14599609375000003 }
 * ```
 */
export function mcnemarExact(onlyFirstPassed: number, onlySecondPassed: number): McNemarTest {
  for (const [name, count] of [
    ['b', onlyFirstPassed],
    ['c', onlySecondPassed],
  ] as const) {
    if (!Number.isInteger(count) || count < 0) {
      throw new StatisticsInputError(
        `McNemar's ${name} must be a non-negative integer count, got ${count}`,
      );
    }
  }
  const statistic = Math.min(onlyFirstPassed, onlySecondPassed);
  const discordant = onlyFirstPassed + onlySecondPassed;
  const pValue = Math.min(1, 2 * binomialCdf(statistic, discordant, 0.5));
  return { statistic, pValue };
}
