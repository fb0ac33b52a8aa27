import type { JudgeResult, JudgeStatus } from '../../src/domain/judge/result.js';
import type { Clock } from '../../src/ports/runtime/clock.js';
import type { RunIdGenerator } from '../../src/ports/runtime/runId.js';
import type { JudgeStore, NewEvaluationRun, NewVerdict } from '../../src/ports/store/judgeStore.js';

/** What both judge store adapters are opened with in tests. */
export interface JudgeHandleOptions {
  readonly readonly?: boolean;
  readonly clock?: Clock;
  readonly newRunId?: RunIdGenerator;
}

/** Opens handles on one new, empty store; each handle is what one process (or machine) would hold. */
export type OpenJudgeHandle = (options?: JudgeHandleOptions) => Promise<JudgeStore>;

/** An evaluation run to create: a config with nested keys out of order and awkward numbers. */
export const sampleEvaluationRun: NewEvaluationRun = {
  judgeName: 'quality',
  judgeConfig: {
    version: 1,
    models: { mock: { provider: 'openai', model: 'gpt-test', api_key_env: 'ARENA_KEY' } },
    judges: { quality: { model: 'mock', rubric: 'Is it right? «ja»', threshold: 1e-7 } },
    gates: [{ judge: 'quality', min_pass_rate: 0.1 + 0.2 }],
  },
  configDir: '/work/judging',
  casesFile: '/work/judging/cases.jsonl',
  casesSha256: 'a'.repeat(64),
  cache: true,
};

/** A judge result of one case; `status` decides score, label and error type as the judge would. */
export function sampleResult(
  evaluationRunId: string,
  caseId: string,
  status: JudgeStatus = 'passed',
): JudgeResult {
  return {
    evaluationRunId,
    caseId,
    subjectId: caseId,
    judge: 'quality',
    judgeVersion: 'v1',
    promptSha256: `${caseId.padEnd(8, '0')}${'b'.repeat(56)}`,
    rubricVersion: 'r1',
    status,
    score: status === 'error' ? null : 0.1 + 0.2,
    label: status === 'error' ? null : 'gut ✓',
    evidence: [
      { kind: 'judge_evidence', sha256: 'c'.repeat(64), sizeBytes: 12, mediaType: 'text/plain' },
    ],
    model: 'gpt-test',
    usage: {
      inputTokens: 10,
      outputTokens: 3,
      reasoningTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      totalTokens: 13,
    },
    costUsd: 1.5e-7,
    durationMs: 51.25,
    attemptCount: status === 'error' ? 3 : 1,
    errorType: status === 'error' ? 'JudgeInvocationError' : null,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

/** The verdict of case `caseId` (key `["run","case","case"]`), freshly judged by `worker`. */
export function sampleVerdict(
  evaluationRunId: string,
  caseId: string,
  overrides: Partial<NewVerdict> = {},
): NewVerdict {
  return {
    evaluationRunId,
    caseKey: JSON.stringify([evaluationRunId, caseId, caseId]),
    judgeName: 'quality',
    result: sampleResult(evaluationRunId, caseId),
    fromCache: false,
    worker: 'w1',
    ...overrides,
  };
}
