import { clusteredMeanAccumulator } from '../stats/clusteredStandardError.js';
import { normalQuantile } from '../stats/distributions.js';
import { type ConfidenceInterval, DEFAULT_CONFIDENCE } from '../stats/interval.js';
import { meanInterval, tInterval } from '../stats/meanInterval.js';
import { addMoment, emptyMoments } from '../stats/runningMoments.js';
import { wilsonInterval } from '../stats/wilsonInterval.js';
import type { JudgeResult, JudgeStatus } from './result.js';

/** What a batch of judgements came to. */
export interface JudgeSummary {
  readonly total: number;
  readonly byStatus: Readonly<Record<JudgeStatus, number>>;
  /** Mean over results that have a score; `null` when none has. */
  readonly meanScore: number | null;
  /** passed / (passed + failed + error): skipped results do not count; `null` when none counts. */
  readonly passRate: number | null;
  /** The results the pass rate counts (passed + failed + error). */
  readonly n: number;
  /**
   * The 95% interval of the pass rate: Wilson's; with trials of each case, the
   * normal interval of the standard error clustered by case. `null` when it
   * cannot be told (no result counts; one case of trials).
   */
  readonly passRateCi: ConfidenceInterval | null;
  /** The results with a score. */
  readonly scored: number;
  /** The 95% t interval of the mean score (clustered by case with trials); `null` for fewer than two. */
  readonly meanScoreCi: ConfidenceInterval | null;
  /** Set when the results are trials of cases: the standard errors are clustered by case. */
  readonly clusteredBy?: { readonly cases: number; readonly trials: number };
  /**
   * Set when each case's trials were reduced to one value (`--reduce`): the
   * pass rate, the mean score, `n`, `scored` and their intervals are then over
   * the reduced cases, and the gates judge those.
   */
  readonly reduced?: { readonly reducer: string; readonly trials: number; readonly cases: number };
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  /**
   * The summed cost of the results that have one; `null` when none has (no
   * prices configured, or a provider that reports none): unknown, not zero.
   */
  readonly costUsd: number | null;
  /** The `error` results by `errorType`, in order of first sight, each with its first `detail`. */
  readonly errorTypes: readonly ErrorTypeCount[];
}

/** How many results erred with one `errorType`, and the first one's `detail`. */
export interface ErrorTypeCount {
  readonly errorType: string;
  readonly count: number;
  readonly firstDetail: string | null;
}

/** Error types kept apart in a summary; any further ones are counted under `other`. */
const MOST_ERROR_TYPES = 8;

/**
 * Summarise results.
 *
 * @example
 * ```ts
 * summarizeJudgeResults([passedWithScore1, failedWithScore0]);
 * // { total: 2, byStatus: { passed: 1, failed: 1, skipped: 0, error: 0 }, meanScore: 0.5, passRate: 0.5, ..., errorTypes: [] }
 * ```
 */
export function summarizeJudgeResults(results: Iterable<JudgeResult>): JudgeSummary {
  const summary = judgeSummaryAccumulator();
  for (const result of results) summary.add(result);
  return summary.summary();
}

/**
 * A summary built one result at a time: a run of any size is summarised in
 * constant memory (with `trials`, plus the cases whose trials are still coming).
 *
 * With `trials` above 1 the results are that many trials of each case (run,
 * case and subject id): they are not independent, so the intervals use the
 * standard error clustered by case (Miller 2024), not the one of n independent results.
 *
 * @example
 * ```ts
 * const accumulator = judgeSummaryAccumulator();
 * for await (const verdict of verdicts) accumulator.add(verdict.result);
 * accumulator.summary().passRate; // 0.6667
 * accumulator.summary().passRateCi; // { low: 0.2076596008020477, high: 0.9385080552796037 }
 * ```
 */
export function judgeSummaryAccumulator(options: { readonly trials?: number } = {}): {
  add(result: JudgeResult): void;
  summary(): JudgeSummary;
} {
  const byStatus: Record<JudgeStatus, number> = { passed: 0, failed: 0, skipped: 0, error: 0 };
  const trials = options.trials ?? 1;
  const clustered =
    trials > 1
      ? { pass: clusteredMeanAccumulator(trials), score: clusteredMeanAccumulator(trials) }
      : null;
  const scores = emptyMoments();
  let total = 0;
  let scoreSum = 0;
  const tokens = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  // the cost summed over the results that report one (`priced`)
  const cost = { usd: 0, priced: 0 };
  const errorTypes = new Map<string, { count: number; firstDetail: string | null }>();
  return {
    add(result) {
      total++;
      byStatus[result.status]++;
      if (result.status === 'error') countError(errorTypes, result);
      if (result.score !== null) {
        scoreSum += result.score;
        addMoment(scores, result.score);
      }
      if (clustered !== null) {
        const caseKey = JSON.stringify([result.evaluationRunId, result.caseId, result.subjectId]);
        clustered.pass.add(caseKey, passIndicator(result.status));
        clustered.score.add(caseKey, result.score);
      }
      tokens.inputTokens += result.usage?.inputTokens ?? 0;
      tokens.outputTokens += result.usage?.outputTokens ?? 0;
      tokens.totalTokens += result.usage?.totalTokens ?? 0;
      if (result.costUsd !== null && result.costUsd !== undefined) {
        cost.usd += result.costUsd;
        cost.priced++;
      }
    },
    summary() {
      const counted = byStatus.passed + byStatus.failed + byStatus.error;
      const passRate = counted > 0 ? byStatus.passed / counted : null;
      const scored = scores.count;
      const meanScore = scored > 0 ? scoreSum / scored : null;
      let intervals: Pick<JudgeSummary, 'passRateCi' | 'meanScoreCi' | 'clusteredBy'>;
      if (clustered === null) {
        intervals = {
          passRateCi: wilsonInterval(byStatus.passed, counted),
          meanScoreCi: meanInterval(scores),
        };
      } else {
        const pass = clustered.pass.result();
        const score = clustered.score.result();
        intervals = {
          passRateCi:
            passRate === null || pass.standardError === null
              ? null
              : normalInterval(passRate, pass.standardError),
          meanScoreCi:
            meanScore === null || score.standardError === null || score.degreesOfFreedom === null
              ? null
              : tInterval(meanScore, score.standardError, score.degreesOfFreedom),
          clusteredBy: { cases: Math.max(pass.clusters, score.clusters), trials },
        };
      }
      return {
        total,
        byStatus: { ...byStatus },
        meanScore,
        passRate,
        n: counted,
        scored,
        ...intervals,
        ...tokens,
        costUsd: cost.priced > 0 ? cost.usd : null,
        errorTypes: [...errorTypes].map(([errorType, counted]) => ({ errorType, ...counted })),
      };
    },
  };
}

/** A result as a pass (1) or not (0, a failure or an error); `null` for a skipped one, which the pass rate leaves out. */
function passIndicator(status: JudgeStatus): number | null {
  return status === 'passed' ? 1 : status === 'skipped' ? null : 0;
}

/** rate ± z · se, kept inside [0, 1]: the interval of a rate from its (clustered) standard error. */
function normalInterval(rate: number, standardError: number): ConfidenceInterval {
  const halfWidth = normalQuantile(1 - (1 - DEFAULT_CONFIDENCE) / 2) * standardError;
  return { low: Math.max(0, rate - halfWidth), high: Math.min(1, rate + halfWidth) };
}

function countError(
  errorTypes: Map<string, { count: number; firstDetail: string | null }>,
  result: JudgeResult,
): void {
  const named = result.errorType ?? 'error';
  const errorType = errorTypes.has(named) || errorTypes.size < MOST_ERROR_TYPES ? named : 'other';
  const counted = errorTypes.get(errorType);
  if (counted) counted.count++;
  else errorTypes.set(errorType, { count: 1, firstDetail: result.detail ?? null });
}

/** The gates of a judge config (all optional). */
export interface JudgeGates {
  readonly minPassRate?: number;
  readonly minMeanScore?: number;
  /** The most `error` results that pass; default `DEFAULT_MAX_ERRORS` (0). */
  readonly maxErrors?: number;
}

/**
 * The `max_errors` of gates that name none: a judgement that errs (a rejected
 * verdict, a timeout, a server out of reach) fails the run, as Inspect fails
 * an eval on errors and promptfoo counts them as failures.
 *
 * @example
 * ```ts
 * DEFAULT_MAX_ERRORS; // 0
 * ```
 */
export const DEFAULT_MAX_ERRORS = 0;

/**
 * The gates a summary fails, each as one sentence; empty when all pass. Errors
 * fail by default (`DEFAULT_MAX_ERRORS`); `maxErrors` allows some.
 *
 * @example
 * ```ts
 * failedGates(summary, { minPassRate: 0.9 });
 * // ['pass rate 0.5 is below min_pass_rate 0.9']
 * failedGates(summaryWithTwoErrors, {});
 * // ['2 errors exceed max_errors 0 (the default: allow errors with gates.max_errors)']
 * ```
 */
export function failedGates(summary: JudgeSummary, gates: JudgeGates): string[] {
  const failures: string[] = [];
  if (gates.minPassRate !== undefined && (summary.passRate ?? 0) < gates.minPassRate) {
    failures.push(
      `pass rate ${formatRatio(summary.passRate)} is below min_pass_rate ${gates.minPassRate}`,
    );
  }
  if (
    gates.minMeanScore !== undefined &&
    (summary.meanScore === null || summary.meanScore < gates.minMeanScore)
  ) {
    failures.push(
      `mean score ${formatRatio(summary.meanScore)} is below min_mean_score ${gates.minMeanScore}`,
    );
  }
  const maxErrors = gates.maxErrors ?? DEFAULT_MAX_ERRORS;
  const errors = summary.byStatus.error;
  if (errors > maxErrors) {
    const byDefault =
      gates.maxErrors === undefined ? ' (the default: allow errors with gates.max_errors)' : '';
    failures.push(
      `${errors} error${errors === 1 ? '' : 's'} exceed${errors === 1 ? 's' : ''} max_errors ${maxErrors}${byDefault}`,
    );
  }
  return failures;
}

function formatRatio(value: number | null): string {
  return value === null ? 'n/a' : String(Number(value.toFixed(4)));
}
