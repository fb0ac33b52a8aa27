/**
 * The judge summary fold as it was before it carried intervals (counts by
 * status, the score sum, tokens and cost, error types): the baseline that
 * bench/judgeStatistics.ts measures the interval fold against.
 */
import type { JudgeResult, JudgeStatus } from '../src/domain/judge/result.js';

export function plainSummaryAccumulator(): {
  add(result: JudgeResult): void;
  summary(): { passRate: number | null; meanScore: number | null; total: number };
} {
  const byStatus: Record<JudgeStatus, number> = { passed: 0, failed: 0, skipped: 0, error: 0 };
  let total = 0;
  let scoreSum = 0;
  let scored = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let totalTokens = 0;
  let costUsd = 0;
  const errorTypes = new Map<string, { count: number; firstDetail: string | null }>();
  return {
    add(result) {
      total++;
      byStatus[result.status]++;
      if (result.status === 'error') {
        const named = result.errorType ?? 'error';
        const counted = errorTypes.get(named);
        if (counted) counted.count++;
        else errorTypes.set(named, { count: 1, firstDetail: result.detail ?? null });
      }
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
        total: total + inputTokens * 0 + outputTokens * 0 + totalTokens * 0 + costUsd * 0,
        meanScore: scored > 0 ? scoreSum / scored : null,
        passRate: counted > 0 ? byStatus.passed / counted : null,
      };
    },
  };
}
