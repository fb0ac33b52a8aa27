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
  readonly costUsd: number;
}

/**
 * Summarise results.
 *
 * @example
 * ```ts
 * summarizeJudgeResults([passedWithScore1, failedWithScore0]);
 * // { total: 2, byStatus: { passed: 1, failed: 1, skipped: 0, error: 0 }, meanScore: 0.5, passRate: 0.5, ... }
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
  return {
    add(result) {
      total++;
      byStatus[result.status]++;
      if (result.score !== null) {
        scoreSum += result.score;
        scored++;
      }
      inputTokens += result.usage?.inputTokens ?? 0;
      outputTokens += result.usage?.outputTokens ?? 0;
      totalTokens += result.usage?.totalTokens ?? 0;
      costUsd += result.costUsd ?? 0;
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
        costUsd,
      };
    },
  };
}

/** The gates of a judge config (all optional). */
export interface JudgeGates {
  readonly minPassRate?: number;
  readonly minMeanScore?: number;
  readonly maxErrors?: number;
}

/**
 * The gates a summary fails, each as one sentence; empty when all pass.
 *
 * @example
 * ```ts
 * failedGates(summary, { minPassRate: 0.9 });
 * // ['pass rate 0.5 is below min_pass_rate 0.9']
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
  if (gates.maxErrors !== undefined && summary.byStatus.error > gates.maxErrors) {
    failures.push(`${summary.byStatus.error} errors exceed max_errors ${gates.maxErrors}`);
  }
  return failures;
}

function formatRatio(value: number | null): string {
  return value === null ? 'n/a' : String(Number(value.toFixed(4)));
}
