import { studentTQuantile } from './distributions.js';
import { type ConfidenceInterval, DEFAULT_CONFIDENCE } from './interval.js';
import { type RunningMoments, standardErrorOfMean } from './runningMoments.js';

/**
 * The t interval of a mean (Student 1908): mean ± t(1 - α/2, df) · se, as
 * SciPy's `t.interval(confidence, df, loc=mean, scale=se)`. By default the
 * standard error is sqrt(s^2 / n) with df = n - 1; a clustered standard error
 * comes with its own df (clusters - 1). `null` for fewer than two values.
 *
 * @example
 * ```ts
 * meanInterval({ count: 3, mean: 0.6333333333333334, squares: 0.2866666666666668 }); // scores 0.9, 0.8, 0.2
 * // { low: -0.30714602555840975, high: 1.5738126922250766 }
 * ```
 */
export function meanInterval(
  moments: RunningMoments,
  options: {
    readonly confidence?: number;
    readonly standardError?: number;
    readonly degreesOfFreedom?: number;
  } = {},
): ConfidenceInterval | null {
  const standardError = options.standardError ?? standardErrorOfMean(moments);
  const degreesOfFreedom = options.degreesOfFreedom ?? moments.count - 1;
  if (standardError === null || degreesOfFreedom < 1) return null;
  return tInterval(moments.mean, standardError, degreesOfFreedom, options.confidence);
}

/**
 * `center ± t(1 - α/2, df) · standardError`.
 *
 * @example
 * ```ts
 * tInterval(1, 0.5, 5); // { low: -0.2852909178181575, high: 2.2852909178181573 }
 * ```
 */
export function tInterval(
  center: number,
  standardError: number,
  degreesOfFreedom: number,
  confidence = DEFAULT_CONFIDENCE,
): ConfidenceInterval {
  const halfWidth = studentTQuantile(1 - (1 - confidence) / 2, degreesOfFreedom) * standardError;
  return { low: center - halfWidth, high: center + halfWidth };
}
