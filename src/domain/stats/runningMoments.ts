/**
 * The count, mean and sum of squared deviations of values seen one at a time
 * (Welford 1962, "Note on a method for calculating corrected sums of squares
 * and products"): constant memory and no cancellation of large sums.
 */
export interface RunningMoments {
  count: number;
  mean: number;
  /** The sum of squared deviations from the mean (M2). */
  squares: number;
}

/**
 * Moments of no value yet, to {@link addMoment} into.
 *
 * @example
 * ```ts
 * const moments = emptyMoments();
 * for (const value of [1, 2, 4]) addMoment(moments, value);
 * [moments.mean, sampleVariance(moments)]; // [2.3333333333333335, 2.333333333333333]
 * ```
 */
export function emptyMoments(): RunningMoments {
  return { count: 0, mean: 0, squares: 0 };
}

/** Add one value (in place). */
export function addMoment(moments: RunningMoments, value: number): void {
  moments.count += 1;
  const delta = value - moments.mean;
  moments.mean += delta / moments.count;
  moments.squares += delta * (value - moments.mean);
}

/** The sample variance (divisor n - 1); `null` for fewer than two values. */
export function sampleVariance(moments: RunningMoments): number | null {
  return moments.count < 2 ? null : moments.squares / (moments.count - 1);
}

/**
 * The standard error of the mean, sqrt(s^2 / n) (as SciPy's `stats.sem`);
 * `null` for fewer than two values.
 *
 * @example
 * ```ts
 * standardErrorOfMean({ count: 3, mean: 2.3333333333333335, squares: 4.666666666666666 }); // 0.8819171036881968
 * ```
 */
export function standardErrorOfMean(moments: RunningMoments): number | null {
  const variance = sampleVariance(moments);
  return variance === null ? null : Math.sqrt(variance / moments.count);
}
