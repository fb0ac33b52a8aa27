import { createRng } from '../shared/random.js';
import { StatsInputError } from './errors.js';
import { percentileOfSorted } from './percentile.js';

/** How many resamples a bootstrap draws unless told (`--bootstrap`). */
export const DEFAULT_BOOTSTRAP_RESAMPLES = 2000;

/** How to draw a {@link bootstrapInterval}. */
export interface BootstrapOptions {
  /** The seed of the `createRng` every resample is drawn from. */
  seed: number;
  /** Resamples to draw (default {@link DEFAULT_BOOTSTRAP_RESAMPLES}). */
  resamples?: number;
  /** Coverage of the interval, in (0, 1) (default 0.95). */
  level?: number;
}

/** A percentile bootstrap interval, or `null` bounds when no resample gave a number. */
export interface BootstrapInterval {
  lo: number | null;
  hi: number | null;
  /** Resamples drawn. */
  resamples: number;
  /** Resamples whose statistic was undefined (`null` or not finite), left out of the interval. */
  undefined: number;
}

/**
 * A seeded case bootstrap (Efron & Tibshirani 1993, percentile interval):
 * draw `cases` indices in [0, cases) with replacement, `resamples` times,
 * hand each draw to `statistic`, and return the (1-level)/2 and (1+level)/2
 * percentiles of the values it gave. The index array is one buffer reused by
 * every resample (read it, do not keep it), so memory is one number a
 * resample on top of the caller's own per-case records. A statistic that is
 * undefined on a resample (`null`, `NaN`: kappa with one category) is left
 * out and counted. The same seed gives the same interval on every machine.
 *
 * @example
 * ```ts
 * const passed = [1, 1, 0, 1, 0, 1, 1, 1];
 * const share = (indices: Uint32Array) => indices.reduce((sum, i) => sum + passed[i]!, 0) / indices.length;
 * bootstrapInterval(passed.length, share, { seed: 7, resamples: 2000 });
 * // { lo: 0.375, hi: 1, resamples: 2000, undefined: 0 }
 * ```
 */
export function bootstrapInterval(
  cases: number,
  statistic: (indices: Uint32Array) => number | null,
  options: BootstrapOptions,
): BootstrapInterval {
  const resamples = options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(cases) || cases < 1) {
    throw new StatsInputError(`bootstrap: cases must be a positive integer, got ${cases}`);
  }
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new StatsInputError(`bootstrap: resamples must be a positive integer, got ${resamples}`);
  }
  if (!(level > 0 && level < 1)) {
    throw new StatsInputError(`bootstrap: level must be in (0, 1), got ${level}`);
  }
  const rng = createRng(options.seed);
  const indices = new Uint32Array(cases);
  const values = new Float64Array(resamples);
  let defined = 0;
  for (let resample = 0; resample < resamples; resample++) {
    for (let i = 0; i < cases; i++) indices[i] = rng.int(cases);
    const value = statistic(indices);
    if (value !== null && Number.isFinite(value)) values[defined++] = value;
  }
  const undefinedCount = resamples - defined;
  if (defined === 0) return { lo: null, hi: null, resamples, undefined: undefinedCount };
  const sorted = values.subarray(0, defined).sort();
  const tail = ((1 - level) / 2) * 100;
  return {
    lo: percentileOfSorted(sorted, tail),
    hi: percentileOfSorted(sorted, 100 - tail),
    resamples,
    undefined: undefinedCount,
  };
}

/**
 * {@link bootstrapInterval} over per-case records: each resample hands
 * `statistic` an iterable view of the drawn records (no copy is made).
 *
 * @example
 * ```ts
 * const scores = [{ score: 0.2 }, { score: 0.9 }, { score: 0.6 }];
 * const meanScore = (drawn: Iterable<{ score: number }>) => {
 *   let sum = 0, count = 0;
 *   for (const record of drawn) { sum += record.score; count += 1; }
 *   return sum / count;
 * };
 * bootstrapRecords(scores, meanScore, { seed: 1, resamples: 500 }).lo! >= 0.2; // true
 * ```
 */
export function bootstrapRecords<T>(
  records: readonly T[],
  statistic: (drawn: Iterable<T>) => number | null,
  options: BootstrapOptions,
): BootstrapInterval {
  return bootstrapInterval(
    records.length,
    (indices) => statistic(drawnRecords(records, indices)),
    options,
  );
}

function drawnRecords<T>(records: readonly T[], indices: Uint32Array): Iterable<T> {
  return {
    *[Symbol.iterator]() {
      for (const index of indices) yield records[index]!;
    },
  };
}
