import type { JudgeResult, PairWinner } from '../../src/domain/judge/result.js';

/**
 * A pairwise result of one order of one pair, as the judge machine makes it:
 * `winner` null is an error result.
 */
export function pairResult(
  caseId: string,
  first: string,
  second: string,
  winner: PairWinner | null,
  candidates = 2,
): JudgeResult {
  return {
    evaluationRunId: 'run',
    caseId,
    subjectId: JSON.stringify([first, second]),
    judge: 'prefer',
    judgeVersion: '1',
    promptSha256: '0'.repeat(64),
    rubricVersion: '1',
    status: winner === null ? 'error' : 'passed',
    score: null,
    label: winner,
    evidence: [],
    model: 'm',
    usage: null,
    costUsd: null,
    durationMs: 1,
    attemptCount: 1,
    errorType: winner === null ? 'JudgeResponseError' : null,
    detail: winner === null ? 'winner: expected first, second or tie, got "A"' : null,
    createdAt: '2026-12-03T00:00:00.000Z',
    pair: {
      systems: first < second ? [first, second] : [second, first],
      first,
      second,
      winner,
      candidates,
    },
  };
}

/** Both orders of a pair: `forward` with `a` first, `reverse` with `b` first. */
export function bothOrders(
  caseId: string,
  a: string,
  b: string,
  forward: PairWinner | null,
  reverse: PairWinner | null,
  candidates = 2,
): JudgeResult[] {
  return [
    pairResult(caseId, a, b, forward, candidates),
    pairResult(caseId, b, a, reverse, candidates),
  ];
}
