import { afterEach, describe, expect, it } from 'vitest';
import { EvaluationRunCancelledError } from '../../../src/actors/judging/evaluationRunErrors.js';
import { judgeEvaluationRun } from '../../../src/actors/judging/judgeEvaluationRun.js';
import { createModelJudge } from '../../../src/actors/judging/judges.js';
import type { ModelProvider } from '../../../src/ports/model/modelProvider.js';
import type { JudgeStore } from '../../../src/ports/store/judgeStore.js';
import { openSqliteJudgeStore } from '../../../src/ports/store/sqlite/sqliteJudgeStore.js';
import { baseSettings, newRun, PASSED, subject } from './fixtures.js';

/** A provider that answers after `delayMs`, and rejects at once when its call is aborted. */
function slowProvider(delayMs: number): ModelProvider {
  return {
    name: 'openai',
    model: 'judge-model',
    invoke: (request) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve({ content: PASSED }), delayMs);
        request.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(request.signal.reason);
        });
      }),
  };
}

let store: JudgeStore | undefined;
afterEach(async () => {
  await store?.close();
});

describe('judgeEvaluationRun', () => {
  it('records a verdict per case and ends the run with as many cases', async () => {
    store = openSqliteJudgeStore(':memory:');
    const judge = createModelJudge({ ...baseSettings, provider: slowProvider(1) });
    const cases = ['a', 'b', 'c'].map((caseId) => subject({ caseId }));
    const run = await judgeEvaluationRun(cases, {
      store,
      judge,
      run: newRun,
      concurrency: 2,
      malformedLines: 1,
    });
    expect(run).toMatchObject({ status: 'succeeded', casesTotal: 3, malformedLines: 1 });
    expect(await store.verdictCount(run.evaluationRunId)).toBe(3);
  });

  it('ends a run of no cases at once, succeeded with none', async () => {
    store = openSqliteJudgeStore(':memory:');
    const judge = createModelJudge({ ...baseSettings, provider: slowProvider(1) });
    const run = await judgeEvaluationRun([], {
      store,
      judge,
      run: newRun,
      concurrency: 2,
      malformedLines: 0,
    });
    expect(run).toMatchObject({ status: 'succeeded', casesTotal: 0 });
  });

  it('cancels the run when the signal aborts, and records no cancelled case', async () => {
    store = openSqliteJudgeStore(':memory:');
    const judge = createModelJudge({ ...baseSettings, provider: slowProvider(10_000) });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 20);
    const cases = ['a', 'b'].map((caseId) => subject({ caseId }));
    const judging = judgeEvaluationRun(cases, {
      store,
      judge,
      run: newRun,
      concurrency: 2,
      malformedLines: 0,
      signal: stop.signal,
    });
    const error = await judging.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(EvaluationRunCancelledError);
    const { evaluationRunId } = error as EvaluationRunCancelledError;
    expect(await store.getEvaluationRun(evaluationRunId)).toMatchObject({ status: 'cancelled' });
    expect(await store.verdictCount(evaluationRunId)).toBe(0);
  });
});
