import type { JudgeContext } from '../../../src/domain/judge/context.js';
import type {
  ModelProvider,
  ModelRequest,
  ModelResponse,
} from '../../../src/ports/model/modelProvider.js';
import { fixedClock } from '../../../src/ports/runtime/clock.js';

/** A subject produced by model `target-model` on provider `openai`. */
export function subject(overrides: Partial<JudgeContext> = {}): JudgeContext {
  return {
    evaluationRunId: 'run-1',
    caseId: 'case-1',
    subjectId: 'subject-1',
    input: { question: 'What is 2 + 2?' },
    candidateOutput: '4',
    expectedOutput: '4',
    observation: { model: 'target-model', provider: 'openai' },
    ...overrides,
  };
}

export const baseSettings = {
  name: 'accuracy',
  judgeVersion: '1',
  rubric: 'Score 1 if the answer is correct, else 0.',
  rubricVersion: '2026-01',
  clock: fixedClock(new Date('2026-01-01T00:00:00Z')),
};

/** An evaluation run of the `baseSettings` judge, without the cache. */
export const newRun = {
  judgeName: baseSettings.name,
  judgeConfig: {},
  configDir: '/configs',
  casesFile: '/configs/cases.jsonl',
  casesSha256: 'ab'.repeat(32),
  cache: false,
};

export const PASSED = JSON.stringify({
  status: 'passed',
  score: 1,
  label: 'correct',
  explanation: null,
  evidence: ['2+2=4'],
});

/** A step of a scripted provider: a response, an error, or a call that never answers. */
export type Step = ModelResponse | Error | 'hang';

/** A provider that plays `steps` in order and records every request. */
export function scriptedProvider(
  steps: Step[],
  model = 'judge-model',
): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: 'openai',
    model,
    requests,
    invoke(request) {
      requests.push(request);
      const step = steps[requests.length - 1] ?? new Error('script exhausted');
      if (step === 'hang') {
        return new Promise((_, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason), {
            once: true,
          });
        });
      }
      if (step instanceof Error) return Promise.reject(step);
      return Promise.resolve(step);
    },
  };
}
