import { normalQuantile } from './distributions.js';
import { StatisticsInputError } from './errors.js';
import { type ConfidenceInterval, DEFAULT_CONFIDENCE } from './interval.js';

/**
 * The Wilson score interval of a proportion (Wilson 1927, "Probable inference,
 * the law of succession, and statistical inference"), as statsmodels'
 * `proportion_confint(method='wilson')`: it stays inside [0, 1] and keeps its
 * coverage near 0 and 1, where the normal (Wald) interval does not.
 * `null` for no trials.
 *
 * @throws StatisticsInputError for counts that are not integers with 0 <= successes <= trials.
 * @example
 * ```ts
 * wilsonInterval(2, 3); // { low: 0.2076596008020477, high: 0.9385080552796037 }
 * wilsonInterval(0, 0); // null
 * ```
 */
export function wilsonInterval(
  successes: number,
  trials: number,
  confidence = DEFAULT_CONFIDENCE,
): ConfidenceInterval | null {
  if (!Number.isInteger(trials) || trials < 0) {
    throw new StatisticsInputError(`trials must be a non-negative integer, got ${trials}`);
  }
  if (!Number.isInteger(successes) || successes < 0 || successes > trials) {
    throw new StatisticsInputError(
      `successes must be an integer from 0 to trials (${trials}), got ${successes}`,
    );
  }
  if (trials === 0) return null;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const z2 = z * z;
  const share = successes / trials;
  const denominator = 1 + z2 / trials;
  const center = (share + z2 / (2 * trials)) / denominator;
  const halfWidth =
    (z * Math.sqrt((share * (1 - share)) / trials + z2 / (4 * trials * trials))) / denominator;
  return { low: center - halfWidth, high: center + halfWidth };
}
