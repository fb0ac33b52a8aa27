import type { JudgeResult, JudgeStatus } from './result.js';

/** What a batch of judgements came to. */
export interface JudgeSummary {
  readonly total: number;
  readonly byStatus: Readonly<Record<JudgeStatus, number>>;
  /** Mean over results that have a score; `null` when none has. */
  readonly meanScore: number | null;
  /** passed / (passed + failed + error): skipped results do not count; `null` when none counts. */
  readonly passRate: number | null;
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
 * constant memory.
 *
 * @example
 * ```ts
 * const accumulator = judgeSummaryAccumulator();
 * for await (const verdict of verdicts) accumulator.add(verdict.result);
 * accumulator.summary().passRate; // 0.6667
 * ```
 */
export function judgeSummaryAccumulator(): {
  add(result: JudgeResult): void;
  summary(): JudgeSummary;
} {
  const byStatus: Record<JudgeStatus, number> = { passed: 0, failed: 0, skipped: 0, error: 0 };
  let total = 0;
  let scoreSum = 0;
  let scored = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let totalTokens = 0;
  let costUsd = 0;
  let priced = 0;
  const errorTypes = new Map<string, { count: number; firstDetail: string | null }>();
  return {
    add(result) {
      total++;
      byStatus[result.status]++;
      if (result.status === 'error') countError(errorTypes, result);
      if (result.score !== null) {
        scoreSum += result.score;
        scored++;
      }
      inputTokens += result.usage?.inputTokens ?? 0;
      outputTokens += result.usage?.outputTokens ?? 0;
      totalTokens += result.usage?.totalTokens ?? 0;
      if (result.costUsd !== null && result.costUsd !== undefined) {
        costUsd += result.costUsd;
        priced++;
      }
    },
    summary() {
      const counted = byStatus.passed + byStatus.failed + byStatus.error;
      return {
        total,
        byStatus: { ...byStatus },
        meanScore: scored > 0 ? scoreSum / scored : null,
        passRate: counted > 0 ? byStatus.passed / counted : null,
        inputTokens,
        outputTokens,
        totalTokens,
        costUsd: priced > 0 ? costUsd : null,
        errorTypes: [...errorTypes].map(([errorType, counted]) => ({ errorType, ...counted })),
      };
    },
  };
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
