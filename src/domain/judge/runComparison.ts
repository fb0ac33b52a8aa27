import { type McNemarTest, mcnemarExact } from '../stats/mcnemarExact.js';
import { type PairedComparison, pairedComparisonAccumulator } from '../stats/pairedTTest.js';

/** What a run says of one case (or one trial of it): its pass value and score, either `null` when absent. */
export interface ComparedValue {
  /** 1 passed, 0 failed (an error fails), a share between for a reduced case; `null` when skipped. */
  readonly pass: number | null;
  readonly score: number | null;
}

/** The 2x2 table of paired pass/fail verdicts. */
export interface PassFailTable {
  readonly bothPassed: number;
  readonly onlyAPassed: number;
  readonly onlyBPassed: number;
  readonly neitherPassed: number;
}

/** One measure compared between the runs, and what its test found. */
export interface MeasureComparison {
  /** The paired difference B - A, its paired and unpaired standard errors, its interval and paired t test. */
  readonly paired: PairedComparison;
  /** The p-value the verdict reads: McNemar's for pass/fail verdicts, else the paired t test's. */
  readonly pValue: number | null;
  readonly test: 'mcnemar_exact' | 'paired_t';
  /** `B` or `A` when that run is better at alpha, `null` when no difference was found. */
  readonly better: 'A' | 'B' | null;
}

/** Two runs over the same cases, compared pair by pair. */
export interface RunComparison {
  readonly alpha: number;
  readonly paired: number;
  readonly onlyInA: number;
  readonly onlyInB: number;
  /** Over the pairs where neither run skipped; `null` when there is none. */
  readonly passRate:
    | (MeasureComparison & {
        /** When every pass value is 0 or 1: the table and McNemar's exact test. */
        readonly table: PassFailTable | null;
        readonly mcnemar: McNemarTest | null;
      })
    | null;
  /** Over the pairs where both runs have a score; `null` when there is none. */
  readonly score: MeasureComparison | null;
  /** Which run is better: `A` or `B` when every measure that differs at alpha says so, `mixed` when they disagree, `null` when none differs. */
  readonly better: 'A' | 'B' | 'mixed' | null;
  /** Whether some measure finds B worse than A at alpha (what `--fail-if-worse` fails on). */
  readonly bWorse: boolean;
}

/**
 * Compare two runs over the same cases, paired by key (case, subject and
 * trial): the pass rates by McNemar's exact test on the discordant pairs
 * (McNemar 1947) with the paired interval of their difference, and the
 * scores by the paired t test, with the unpaired standard error beside the
 * paired one to show what pairing saved (Miller 2024, "Adding error bars to
 * evals"). Keys in one run only are counted, not compared.
 *
 * @example
 * ```ts
 * compareRuns(new Map([['c1', { pass: 1, score: 1 }], ['c2', { pass: 0, score: 0 }]]),
 *   new Map([['c1', { pass: 1, score: 1 }], ['c2', { pass: 0, score: 0 }]]), 0.05);
 * // { alpha: 0.05, paired: 2, onlyInA: 0, onlyInB: 0, passRate: { ..., pValue: 1, better: null }, score: { ... }, better: null, bWorse: false }
 * ```
 */
export function compareRuns(
  a: ReadonlyMap<string, ComparedValue>,
  b: ReadonlyMap<string, ComparedValue>,
  alpha: number,
): RunComparison {
  const passes = pairedComparisonAccumulator();
  const scores = pairedComparisonAccumulator();
  const table = { bothPassed: 0, onlyAPassed: 0, onlyBPassed: 0, neitherPassed: 0 };
  let binary = true;
  let passPairs = 0;
  let scorePairs = 0;
  let paired = 0;
  for (const [key, first] of a) {
    const second = b.get(key);
    if (second === undefined) continue;
    paired++;
    if (first.pass !== null && second.pass !== null) {
      passPairs++;
      passes.add(first.pass, second.pass);
      if (!isBinary(first.pass) || !isBinary(second.pass)) binary = false;
      else if (first.pass === 1) table[second.pass === 1 ? 'bothPassed' : 'onlyAPassed']++;
      else table[second.pass === 1 ? 'onlyBPassed' : 'neitherPassed']++;
    }
    if (first.score !== null && second.score !== null) {
      scorePairs++;
      scores.add(first.score, second.score);
    }
  }
  let passRate: RunComparison['passRate'] = null;
  if (passPairs > 0) {
    const mcnemar = binary ? mcnemarExact(table.onlyAPassed, table.onlyBPassed) : null;
    const comparison = passes.result();
    passRate = {
      ...measure(comparison, mcnemar?.pValue ?? comparison.pValue, alpha),
      test: mcnemar === null ? 'paired_t' : 'mcnemar_exact',
      table: binary ? table : null,
      mcnemar,
    };
  }
  const score =
    scorePairs > 0
      ? { ...measure(scores.result(), scores.result().pValue, alpha), test: 'paired_t' as const }
      : null;
  const verdicts = [passRate?.better, score?.better].filter(
    (better): better is 'A' | 'B' => better === 'A' || better === 'B',
  );
  const better =
    verdicts.length === 0
      ? null
      : verdicts.every((run) => run === verdicts[0])
        ? verdicts[0]!
        : 'mixed';
  return {
    alpha,
    paired,
    onlyInA: a.size - paired,
    onlyInB: b.size - paired,
    passRate,
    score,
    better,
    bWorse: verdicts.includes('A'),
  };
}

function measure(
  paired: PairedComparison,
  pValue: number | null,
  alpha: number,
): Omit<MeasureComparison, 'test'> {
  const differs = pValue !== null && pValue < alpha && (paired.meanDifference ?? 0) !== 0;
  return {
    paired,
    pValue,
    better: differs ? ((paired.meanDifference ?? 0) > 0 ? 'B' : 'A') : null,
  };
}

function isBinary(value: number): boolean {
  return value === 0 || value === 1;
}
