import { afterEach, describe, expect, it } from 'vitest';
import { followEvaluationRun } from '../../../src/actors/judging/evaluationRuns.js';
import type { JudgeQueue } from '../../../src/ports/queue/judgeQueue.js';
import type { JudgeStore } from '../../../src/ports/store/judgeStore.js';
import { openSqliteJudgeStore } from '../../../src/ports/store/sqlite/sqliteJudgeStore.js';
import { sampleEvaluationRun, sampleVerdict } from '../../support/judgeVerdicts.js';

/** A queue that carries status hints only: `tell` is a worker announcing a run changed. */
function hintingQueue() {
  const listeners = new Map<string, Set<() => void>>();
  const queue = {
    onStatus(evaluationRunId: string, listener: () => void) {
      const each = listeners.get(evaluationRunId) ?? new Set();
      listeners.set(evaluationRunId, each.add(listener));
      return () => each.delete(listener);
    },
  } as unknown as JudgeQueue;
  const tell = (evaluationRunId: string): void => {
    for (const listener of listeners.get(evaluationRunId) ?? []) listener();
  };
  return { queue, tell, listening: (id: string) => listeners.get(id)?.size ?? 0 };
}

let store: JudgeStore | undefined;
afterEach(async () => {
  await store?.close();
});

describe('following an evaluation run', () => {
  // the slow poll is an hour: only a hint can end the wait within the test's timeout
  const pollMs = 60 * 60_000;

  it('reads the run again when a worker tells it changed, and ends with it', async () => {
    store = openSqliteJudgeStore(':memory:');
    const run = await store.createEvaluationRun(sampleEvaluationRun);
    await store.setCasesTotal(run.evaluationRunId, 2, 0);
    const { queue, tell, listening } = hintingQueue();
    const progress: number[] = [];
    const following = followEvaluationRun(store, run.evaluationRunId, {
      queue,
      pollMs,
      onProgress: (done) => progress.push(done),
    });
    await expect.poll(() => progress.length).toBe(1);
    await store.recordVerdict(sampleVerdict(run.evaluationRunId, 'c1'));
    tell(run.evaluationRunId);
    await expect.poll(() => progress).toEqual([0, 1]);
    await store.recordVerdict(sampleVerdict(run.evaluationRunId, 'c2'));
    tell(run.evaluationRunId);
    expect((await following).status).toBe('succeeded');
    expect(progress).toEqual([0, 1, 2]);
    expect(listening(run.evaluationRunId)).toBe(0);
  });

  it("is not moved by another run's hints", async () => {
    store = openSqliteJudgeStore(':memory:');
    const run = await store.createEvaluationRun(sampleEvaluationRun);
    const other = await store.createEvaluationRun(sampleEvaluationRun);
    await store.setCasesTotal(run.evaluationRunId, 1, 0);
    const { queue, tell } = hintingQueue();
    const stop = new AbortController();
    const progress: number[] = [];
    const following = followEvaluationRun(store, run.evaluationRunId, {
      queue,
      pollMs,
      signal: stop.signal,
      onProgress: (done) => progress.push(done),
    });
    await expect.poll(() => progress.length).toBe(1);
    for (let hint = 0; hint < 5; hint++) tell(other.evaluationRunId);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(progress).toEqual([0]);
    // an abort ends the wait at once, the slow poll notwithstanding
    stop.abort();
    expect((await following).status).toBe('running');
  });
});
