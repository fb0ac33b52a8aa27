import { StatisticsInputError } from './errors.js';

/**
 * The unbiased estimator of pass@k from n trials of which c passed (Chen et
 * al. 2021, "Evaluating large language models trained on code"):
 * 1 - C(n-c, k) / C(n, k), computed as 1 - prod over i from n-c+1 to n of
 * (1 - k/i), which never forms a binomial coefficient (no overflow at n = 1000).
 *
 * @throws StatisticsInputError unless 1 <= k <= n and 0 <= c <= n, all integers.
 * @example
 * ```ts
 * passAtK(3, 1, 2); // 0.6666666666666666
 * passAtK(10, 3, 1); // 0.30000000000000004
 * passAtK(3, 2, 2); // 1 (fewer failures than k: every draw of k holds a pass)
 * ```
 */
export function passAtK(trials: number, passed: number, k: number): number {
  if (!Number.isInteger(trials) || trials < 1) {
    throw new StatisticsInputError(`pass@k needs n >= 1 trials, got n ${trials}`);
  }
  if (!Number.isInteger(k) || k < 1 || k > trials) {
    throw new StatisticsInputError(
      `pass@k needs k <= n (the trials of a case), got k ${k} with n ${trials}`,
    );
  }
  if (!Number.isInteger(passed) || passed < 0 || passed > trials) {
    throw new StatisticsInputError(
      `pass@k needs 0 <= c <= n passed trials, got c ${passed} with n ${trials}`,
    );
  }
  if (trials - passed < k) return 1;
  let allFail = 1;
  for (let i = trials - passed + 1; i <= trials; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}
