import { studentTCdf } from './distributions.js';
import { type ConfidenceInterval, DEFAULT_CONFIDENCE } from './interval.js';
import { tInterval } from './meanInterval.js';
import { addMoment, emptyMoments, type RunningMoments, sampleVariance } from './runningMoments.js';

/** A paired comparison of two measurements of the same items (B minus A). */
export interface PairedComparison {
  /** Pairs compared. */
  readonly n: number;
  readonly meanA: number | null;
  readonly meanB: number | null;
  /** The mean of the differences B - A; `null` for no pair. */
  readonly meanDifference: number | null;
  /** sqrt(Var(d) / n): the standard error of the mean difference, paired. */
  readonly pairedStandardError: number | null;
  /** sqrt(Var(a) / n + Var(b) / n): what it would be if the two runs were independent samples. */
  readonly unpairedStandardError: number | null;
  /** The t interval of the mean difference with the paired standard error (df n - 1). */
  readonly interval: ConfidenceInterval | null;
  readonly t: number | null;
  readonly degreesOfFreedom: number | null;
  /** The two-sided p-value of the paired t test. */
  readonly pValue: number | null;
}

/**
 * The paired t test (Student 1908), with the paired standard error of the mean
 * difference sqrt(Var(d)/n) and the unpaired one beside it (Miller 2024,
 * "Adding error bars to evals", section 4: pairing removes the variance the
 * two runs share), as SciPy's `ttest_rel(b, a)`. Folded one pair at a time.
 *
 * Where every difference is the same, SciPy gives nan; here t is 0 and p is 1
 * when that difference is 0, and t is ±Infinity and p is 0 otherwise.
 *
 * @example
 * ```ts
 * const paired = pairedComparisonAccumulator();
 * for (const [a, b] of [[0.5, 0.6], [0.7, 0.9], [0.2, 0.2], [0.9, 1]]) paired.add(a, b);
 * paired.result();
 * // { n: 4, meanA: 0.575, meanB: 0.675, meanDifference: 0.1, pairedStandardError: 0.04082482904638631,
 * //   unpairedStandardError: 0.2336307628146031, interval: { low: -0.029922826362511146, high: 0.22992282636251116 },
 * //   t: 2.4494897427831774, degreesOfFreedom: 3, pValue: 0.09172111331157198 }
 * ```
 */
export function pairedComparisonAccumulator(confidence = DEFAULT_CONFIDENCE): {
  add(a: number, b: number): void;
  result(): PairedComparison;
} {
  const first = emptyMoments();
  const second = emptyMoments();
  const differences = emptyMoments();
  return {
    add(a, b) {
      addMoment(first, a);
      addMoment(second, b);
      addMoment(differences, b - a);
    },
    result() {
      return pairedComparisonOf(first, second, differences, confidence);
    },
  };
}

function pairedComparisonOf(
  first: RunningMoments,
  second: RunningMoments,
  differences: RunningMoments,
  confidence: number,
): PairedComparison {
  const n = differences.count;
  const varianceOfDifferences = sampleVariance(differences);
  const varianceA = sampleVariance(first);
  const varianceB = sampleVariance(second);
  const empty = n === 0;
  const base = {
    n,
    meanA: empty ? null : first.mean,
    meanB: empty ? null : second.mean,
    meanDifference: empty ? null : differences.mean,
  };
  if (varianceOfDifferences === null || varianceA === null || varianceB === null) {
    return {
      ...base,
      pairedStandardError: null,
      unpairedStandardError: null,
      interval: null,
      t: null,
      degreesOfFreedom: null,
      pValue: null,
    };
  }
  const pairedStandardError = Math.sqrt(varianceOfDifferences / n);
  const degreesOfFreedom = n - 1;
  const t =
    pairedStandardError > 0
      ? differences.mean / pairedStandardError
      : differences.mean === 0
        ? 0
        : Math.sign(differences.mean) * Number.POSITIVE_INFINITY;
  return {
    ...base,
    pairedStandardError,
    unpairedStandardError: Math.sqrt(varianceA / n + varianceB / n),
    interval: tInterval(differences.mean, pairedStandardError, degreesOfFreedom, confidence),
    t,
    degreesOfFreedom,
    pValue: Math.min(1, 2 * studentTCdf(-Math.abs(t), degreesOfFreedom)),
  };
}
