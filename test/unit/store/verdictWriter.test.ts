import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JudgeContext } from '../../../src/domain/judge/context.js';
import { type BatchLimits, batchedCalls } from '../../../src/ports/runtime/batchedCalls.js';
import type { JudgeStore, NewVerdict } from '../../../src/ports/store/judgeStore.js';
import { openSqliteJudgeStore } from '../../../src/ports/store/sqlite/sqliteJudgeStore.js';
import { batchingVerdictWriter } from '../../../src/ports/store/verdictWriter.js';
import { sampleEvaluationRun, sampleVerdict } from '../../support/judgeVerdicts.js';

/** Squares in batches, keeping each batch it was sent. */
function squaring(limits: BatchLimits) {
  const sent: number[][] = [];
  const calls = batchedCalls(
    async (_group, inputs: readonly number[]) => {
      sent.push([...inputs]);
      return inputs.map((n) => n * n);
    },
    () => '',
    limits,
  );
  return { sent, calls };
}

describe('batchedCalls', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends a full batch at once and the rest when the first call has waited long enough', async () => {
    vi.useFakeTimers();
    const { sent, calls: squares } = squaring({ maxSize: 3, maxWaitMs: 50 });
    const calls = [1, 2, 3, 4].map((n) => squares.call(n));
    // the first three filled a batch: sent without the timer
    expect(sent).toEqual([[1, 2, 3]]);
    expect(squares.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(49);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([[1, 2, 3], [4]]);
    expect(await Promise.all(calls)).toEqual([1, 4, 9, 16]);
  });

  it('keeps groups apart and rejects every call of a failed batch, and only those', async () => {
    const squares = batchedCalls(
      async (group, inputs: readonly number[]) => {
        if (group === 'odd') throw new Error('the odd batch failed');
        return inputs.map((n) => n * n);
      },
      (n) => (n % 2 === 0 ? 'even' : 'odd'),
      { maxSize: 10, maxWaitMs: 1 },
    );
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => squares.call(n)));
    expect(results.map((result) => result.status)).toEqual([
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(results[1]).toEqual({ status: 'fulfilled', value: 4 });
    expect(results[0]).toMatchObject({ reason: new Error('the odd batch failed') });
  });

  it('rejects a batch whose bulk call answers for fewer calls than it got', async () => {
    const short = batchedCalls(
      async (_group, inputs: readonly number[]) => inputs.slice(1),
      () => '',
      { maxSize: 2, maxWaitMs: 1 },
    );
    await expect(Promise.all([short.call(1), short.call(2)])).rejects.toThrow(
      'a bulk call answered 1 of 2 calls',
    );
  });

  it('flush sends what is gathered without waiting for the timer', async () => {
    vi.useFakeTimers();
    const { sent, calls: squares } = squaring({ maxSize: 10, maxWaitMs: 60_000 });
    const calls = [squares.call(7), squares.call(8)];
    await squares.flush();
    expect(sent).toEqual([[7, 8]]);
    expect(await Promise.all(calls)).toEqual([49, 64]);
  });
});

describe('batchingVerdictWriter over the SQLite judge store', () => {
  let folder: string;
  let store: JudgeStore;
  let runId: string;
  beforeEach(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'arena-verdict-writer-'));
    store = openSqliteJudgeStore(path.join(folder, 'arena.db'));
    runId = (await store.createEvaluationRun(sampleEvaluationRun)).evaluationRunId;
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('commits the verdicts of the same moment in one transaction, each resolving only once it is stored', async () => {
    const batches: number[] = [];
    const counting: JudgeStore = {
      ...store,
      recordVerdicts: async (verdicts) => {
        batches.push(verdicts.length);
        return store.recordVerdicts(verdicts);
      },
    };
    const writer = batchingVerdictWriter(counting, { maxVerdicts: 4, maxWaitMs: 5 });
    const verdicts: NewVerdict[] = ['c1', 'c2', 'c3', 'c4', 'c5', 'c2'].map((id) =>
      sampleVerdict(runId, id),
    );
    const recordings = await Promise.all(
      verdicts.map(async (verdict) => {
        const recording = await writer.record(verdict);
        // resolved: the verdict is in the store, as a reader elsewhere sees it
        expect(await store.hasVerdict(runId, verdict.caseKey, 'quality')).toBe(true);
        return recording;
      }),
    );
    expect(batches).toEqual([4, 2]);
    expect(recordings).toEqual([
      'recorded',
      'recorded',
      'recorded',
      'recorded',
      'recorded',
      'duplicate',
    ]);
    expect(await store.verdictCount(runId)).toBe(5);
  });

  it('reads the cache for the keys of the same moment with one call', async () => {
    await store.recordVerdict(
      sampleVerdict(runId, 'c1', {
        cacheEntry: {
          key: 'k1',
          promptSha256: 'd'.repeat(64),
          model: 'gpt-test',
          judgeVersion: 'v1',
          rubricVersion: 'r1',
        },
      }),
    );
    const reads: string[][] = [];
    const counting: JudgeStore = {
      ...store,
      cachedVerdicts: async (keys) => {
        reads.push([...keys]);
        return store.cachedVerdicts(keys);
      },
    };
    const writer = batchingVerdictWriter(counting, { maxVerdicts: 8, maxWaitMs: 5 });
    const found = await Promise.all(['k0', 'k1', 'k2'].map((key) => writer.cached(key)));
    expect(reads).toEqual([['k0', 'k1', 'k2']]);
    expect(found.map((result) => result?.caseId ?? null)).toEqual([null, 'c1', null]);
  });

  it("reads a run's cases asked for at the same moment with one call per run", async () => {
    const other = (await store.createEvaluationRun(sampleEvaluationRun)).evaluationRunId;
    // the store keeps a context as the JSON it is given
    const context = (evaluationRunId: string, caseId: string) =>
      ({ evaluationRunId, caseId }) as unknown as JudgeContext;
    await store.recordCases(runId, [{ caseKey: 'a', context: context(runId, 'a') }]);
    await store.recordCases(other, [{ caseKey: 'b', context: context(other, 'b') }]);
    const reads: [string, string[]][] = [];
    const counting: JudgeStore = {
      ...store,
      storedCases: async (evaluationRunId, caseKeys) => {
        reads.push([evaluationRunId, [...caseKeys]]);
        return store.storedCases(evaluationRunId, caseKeys);
      },
    };
    const writer = batchingVerdictWriter(counting, { maxVerdicts: 8, maxWaitMs: 50 });
    const found = await Promise.all([
      writer.storedCase(runId, 'a'),
      writer.storedCase(other, 'b'),
      writer.storedCase(runId, 'forged'),
    ]);
    expect(reads).toEqual([
      [runId, ['a', 'forged']],
      [other, ['b']],
    ]);
    expect(found.map((each) => each?.caseKey ?? null)).toEqual(['a', 'b', null]);
  });
});
