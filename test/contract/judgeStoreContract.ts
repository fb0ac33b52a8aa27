import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JudgeContext } from '../../src/domain/judge/context.js';
import { fixedClock, type ManualClock } from '../../src/ports/runtime/clock.js';
import { createRunIdGenerator } from '../../src/ports/runtime/runId.js';
import {
  EvaluationRunNotFoundError,
  type JudgeStore,
  type VerdictCacheEntry,
} from '../../src/ports/store/judgeStore.js';
import {
  DuplicateRecordError,
  InvalidRecordError,
  StoreReadOnlyError,
} from '../../src/ports/store/storeErrors.js';
import {
  type JudgeHandleOptions,
  type OpenJudgeHandle,
  sampleEvaluationRun,
  sampleResult,
  sampleVerdict,
} from '../support/judgeVerdicts.js';
import { describeCalibrationStoreContract, sampleCalibration } from './calibrationStoreContract.js';

/** How a contract run gets its stores: a new, empty location per test. */
export interface JudgeStoreHarness {
  newStore(): Promise<OpenJudgeHandle>;
}

const start = new Date('2026-01-01T00:00:00.000Z');

const cacheEntry = (key: string): VerdictCacheEntry => ({
  key,
  promptSha256: 'd'.repeat(64),
  model: 'gpt-test',
  judgeVersion: 'v1',
  rubricVersion: 'r1',
});

/**
 * The JudgeStore contract: what every adapter (SQLite, PostgreSQL) must do
 * the same, method for method, error for error.
 */
export function describeJudgeStoreContract(adapter: string, harness: JudgeStoreHarness): void {
  describe(`${adapter} judge store contract`, () => {
    let open: OpenJudgeHandle;
    let clock: ManualClock;
    let store: JudgeStore;
    let runId: string;
    const handles: JudgeStore[] = [];
    const handle = async (options: JudgeHandleOptions = {}): Promise<JudgeStore> => {
      const opened = await open({ clock, ...options });
      handles.push(opened);
      return opened;
    };

    beforeEach(async () => {
      open = await harness.newStore();
      clock = fixedClock(start);
      store = await handle();
      runId = (await store.createEvaluationRun(sampleEvaluationRun)).evaluationRunId;
    });
    afterEach(async () => {
      for (const opened of handles.splice(0)) await opened.close();
    });

    describe('evaluation runs', () => {
      it('creates a running run under a fresh id and reads it back as it was given', async () => {
        expect(runId).toMatch(/^quality-20260101T000000-[0-9a-f]{4}$/);
        expect(await store.getEvaluationRun(runId)).toEqual({
          evaluationRunId: runId,
          status: 'running',
          ...sampleEvaluationRun,
          casesTotal: null,
          malformedLines: 0,
          createdAt: '2026-01-01T00:00:00.000Z',
          endedAt: null,
          error: null,
        });
      });

      it('keeps the judge config as canonical JSON: equal values, whatever their key order', async () => {
        const judgeConfig = { z: { b: [1, { y: 2, x: 1e-7 }], a: 'ü\u0000' }, a: null };
        const created = await store.createEvaluationRun({
          ...sampleEvaluationRun,
          judgeConfig,
          cache: false,
        });
        const read = await (await handle()).getEvaluationRun(created.evaluationRunId);
        expect(read.judgeConfig).toEqual(judgeConfig);
        expect(Object.keys(read.judgeConfig as object)).toEqual(['a', 'z']);
        expect(read.cache).toBe(false);
      });

      it('names the missing id', async () => {
        for (const call of [
          () => store.getEvaluationRun('nope'),
          () => store.setCasesTotal('nope', 1, 0),
          () => store.cancelEvaluationRun('nope'),
          () => store.failEvaluationRun('nope', 'why'),
          () => store.recordVerdict(sampleVerdict('nope', 'c1')),
          () => store.verdictCount('nope'),
          () => store.verdicts('nope', { limit: 1 }),
        ]) {
          await expect(call()).rejects.toThrow(EvaluationRunNotFoundError);
          await expect(call()).rejects.toThrow("no evaluation run 'nope'");
        }
      });

      it('retries an id that is taken, and gives up after 8 collisions', async () => {
        const ids = ['taken', 'taken', 'fresh'];
        const colliding = await handle({ newRunId: () => ids.shift() ?? 'taken' });
        expect((await colliding.createEvaluationRun(sampleEvaluationRun)).evaluationRunId).toBe(
          'taken',
        );
        expect((await colliding.createEvaluationRun(sampleEvaluationRun)).evaluationRunId).toBe(
          'fresh',
        );
        await expect(colliding.createEvaluationRun(sampleEvaluationRun)).rejects.toThrow(
          DuplicateRecordError,
        );
        const hex = ['0001', '0001', '0002'];
        const sameSecond = await handle({
          newRunId: createRunIdGenerator({ randomHex: () => hex.shift() ?? '0003' }),
        });
        const first = await sameSecond.createEvaluationRun(sampleEvaluationRun);
        const second = await sameSecond.createEvaluationRun(sampleEvaluationRun);
        expect([first.evaluationRunId, second.evaluationRunId]).toEqual([
          'quality-20260101T000000-0001',
          'quality-20260101T000000-0002',
        ]);
      });

      it('cancels a running run once: a finished run stays as it is', async () => {
        clock.advance(1000);
        const cancelled = await store.cancelEvaluationRun(runId);
        expect(cancelled).toMatchObject({
          status: 'cancelled',
          endedAt: '2026-01-01T00:00:01.000Z',
        });
        clock.advance(1000);
        expect(await store.failEvaluationRun(runId, 'too late')).toEqual(cancelled);
        expect(await store.cancelEvaluationRun(runId)).toEqual(cancelled);
      });

      it('fails a running run with its error; a failed run stays failed', async () => {
        const failed = await store.failEvaluationRun(runId, 'the queue is gone');
        expect(failed).toMatchObject({ status: 'failed', error: 'the queue is gone' });
        expect(failed.endedAt).not.toBeNull();
        expect(await store.cancelEvaluationRun(runId)).toEqual(failed);
      });

      it('refuses a cases total that is not a whole number', async () => {
        await expect(store.setCasesTotal(runId, -1, 0)).rejects.toThrow(InvalidRecordError);
        await expect(store.setCasesTotal(runId, 2, 0.5)).rejects.toThrow('malformedLines');
        expect((await store.getEvaluationRun(runId)).casesTotal).toBeNull();
      });
    });

    describe('the cases total and the end of a run', () => {
      it('the last verdict of the total finishes the run, in the same call', async () => {
        const total = await store.setCasesTotal(runId, 2, 1);
        expect(total).toMatchObject({ status: 'running', casesTotal: 2, malformedLines: 1 });
        expect(await store.recordVerdict(sampleVerdict(runId, 'c1'))).toBe('recorded');
        expect((await store.getEvaluationRun(runId)).status).toBe('running');
        clock.advance(2500);
        expect(await store.recordVerdict(sampleVerdict(runId, 'c2'))).toBe('recorded');
        expect(await store.getEvaluationRun(runId)).toMatchObject({
          status: 'succeeded',
          endedAt: '2026-01-01T00:00:02.500Z',
          error: null,
        });
      });

      it('a total set after every verdict is in finishes the run at once', async () => {
        await store.recordVerdict(sampleVerdict(runId, 'c1'));
        await store.recordVerdict(sampleVerdict(runId, 'c2'));
        expect((await store.getEvaluationRun(runId)).status).toBe('running');
        expect(await store.setCasesTotal(runId, 2, 0)).toMatchObject({
          status: 'succeeded',
          casesTotal: 2,
        });
      });

      it('a file of no cases succeeds when its total (0) is set', async () => {
        expect((await store.setCasesTotal(runId, 0, 3)).status).toBe('succeeded');
      });

      it('a cancelled run stays cancelled when its total comes in', async () => {
        await store.recordVerdict(sampleVerdict(runId, 'c1'));
        await store.cancelEvaluationRun(runId);
        expect(await store.setCasesTotal(runId, 1, 0)).toMatchObject({
          status: 'cancelled',
          casesTotal: 1,
        });
      });
    });

    describe('verdicts', () => {
      it('records a case once: a second recording is a duplicate and changes nothing', async () => {
        const first = sampleVerdict(runId, 'c1', { worker: 'w1' });
        expect(await store.hasVerdict(runId, first.caseKey, 'quality')).toBe(false);
        expect(await store.recordVerdict(first)).toBe('recorded');
        expect(await store.hasVerdict(runId, first.caseKey, 'quality')).toBe(true);
        const again = sampleVerdict(runId, 'c1', {
          worker: 'w2',
          result: sampleResult(runId, 'c1', 'failed'),
        });
        expect(await store.recordVerdict(again)).toBe('duplicate');
        expect(await store.verdictCount(runId)).toBe(1);
        const [stored] = await store.verdicts(runId, { limit: 10 });
        expect(stored).toMatchObject({ worker: 'w1', result: first.result });
      });

      it('another judge of the same case is another verdict', async () => {
        await store.recordVerdict(sampleVerdict(runId, 'c1'));
        expect(await store.recordVerdict(sampleVerdict(runId, 'c1', { judgeName: 'safety' }))).toBe(
          'recorded',
        );
        expect(await store.hasVerdict(runId, JSON.stringify([runId, 'c1', 'c1']), 'safety')).toBe(
          true,
        );
        expect(await store.verdictCount(runId)).toBe(2);
      });

      it('records nothing after a cancel, nor after a failure', async () => {
        await store.recordVerdict(sampleVerdict(runId, 'c1'));
        await store.cancelEvaluationRun(runId);
        expect(await store.recordVerdict(sampleVerdict(runId, 'c2'))).toBe('closed');
        expect(await store.recordVerdict(sampleVerdict(runId, 'c1'))).toBe('closed');
        expect(await store.verdictCount(runId)).toBe(1);

        const failing = (await store.createEvaluationRun(sampleEvaluationRun)).evaluationRunId;
        await store.failEvaluationRun(failing, 'boom');
        expect(await store.recordVerdict(sampleVerdict(failing, 'c1'))).toBe('closed');
        expect(await store.verdictCount(failing)).toBe(0);
      });

      it('a succeeded run takes no case beyond its total, and a redelivery is a duplicate', async () => {
        await store.setCasesTotal(runId, 1, 0);
        await store.recordVerdict(sampleVerdict(runId, 'c1'));
        expect(await store.recordVerdict(sampleVerdict(runId, 'c1'))).toBe('duplicate');
        expect(await store.recordVerdict(sampleVerdict(runId, 'c9'))).toBe('closed');
        expect(await store.verdictCount(runId)).toBe(1);
      });

      it('reads every field of a verdict back as it was recorded', async () => {
        const verdict = sampleVerdict(runId, 'c1', {
          fromCache: true,
          worker: null,
          result: sampleResult(runId, 'c1', 'error'),
        });
        clock.advance(42);
        await store.recordVerdict(verdict);
        const [stored] = await (await handle()).verdicts(runId, { limit: 1 });
        expect(stored).toEqual({
          evaluationRunId: runId,
          caseKey: verdict.caseKey,
          judgeName: 'quality',
          seq: stored?.seq,
          result: verdict.result,
          fromCache: true,
          worker: null,
          recordedAt: '2026-01-01T00:00:00.042Z',
        });
        expect(stored?.seq).toBeGreaterThan(0);
      });

      it('pages through a run’s verdicts in seq order, without another run’s', async () => {
        const other = (await store.createEvaluationRun(sampleEvaluationRun)).evaluationRunId;
        const cases = ['c5', 'c1', 'c4', 'c2', 'c3'];
        for (const caseId of cases) {
          await store.recordVerdict(sampleVerdict(runId, caseId));
          await store.recordVerdict(sampleVerdict(other, caseId));
        }
        const pages: string[][] = [];
        let afterSeq: number | undefined;
        for (;;) {
          const page = await store.verdicts(runId, {
            limit: 2,
            ...(afterSeq !== undefined ? { afterSeq } : {}),
          });
          if (page.length === 0) break;
          const seqs = page.map((verdict) => verdict.seq);
          expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
          if (afterSeq !== undefined) expect(seqs[0]).toBeGreaterThan(afterSeq);
          expect(page.every((verdict) => verdict.evaluationRunId === runId)).toBe(true);
          pages.push(page.map((verdict) => verdict.result.caseId));
          afterSeq = page.at(-1)?.seq;
        }
        expect(pages).toEqual([['c5', 'c1'], ['c4', 'c2'], ['c3']]);
        expect(await store.verdicts(runId, { limit: 0 })).toEqual([]);
        expect(await store.verdictCount(runId)).toBe(5);
      });

      it('refuses a paging limit that is not a whole number', async () => {
        await expect(store.verdicts(runId, { limit: -1 })).rejects.toThrow(InvalidRecordError);
        await expect(store.verdicts(runId, { limit: 1, afterSeq: 1.5 })).rejects.toThrow(
          'afterSeq',
        );
      });
    });

    describe('verdicts in batches', () => {
      it('records a batch in order, counts it once and keeps a case given twice as one verdict', async () => {
        await store.recordVerdict(sampleVerdict(runId, 'c0', { worker: 'w0' }));
        const batch = [
          sampleVerdict(runId, 'c1', { worker: 'w1' }),
          sampleVerdict(runId, 'c0', { worker: 'w1' }),
          sampleVerdict(runId, 'c2', { worker: 'w1' }),
          sampleVerdict(runId, 'c1', { worker: 'w2', result: sampleResult(runId, 'c1', 'failed') }),
        ];
        expect(await store.recordVerdicts(batch)).toEqual([
          'recorded',
          'duplicate',
          'recorded',
          'duplicate',
        ]);
        expect(await store.verdictCount(runId)).toBe(3);
        const stored = await store.verdicts(runId, { limit: 10 });
        expect(stored.map((verdict) => [verdict.caseKey, verdict.worker])).toEqual([
          [batch[1]?.caseKey, 'w0'],
          [batch[0]?.caseKey, 'w1'],
          [batch[2]?.caseKey, 'w1'],
        ]);
        expect(stored[1]?.result).toEqual(batch[0]?.result);
        expect(await store.recordVerdicts([])).toEqual([]);
      });

      it('a batch holding the last verdicts finishes its run; one past the total is closed', async () => {
        await store.setCasesTotal(runId, 2, 0);
        clock.advance(1000);
        expect(
          await store.recordVerdicts([
            sampleVerdict(runId, 'c1'),
            sampleVerdict(runId, 'c2'),
            sampleVerdict(runId, 'c2'),
          ]),
        ).toEqual(['recorded', 'recorded', 'duplicate']);
        expect(await store.getEvaluationRun(runId)).toMatchObject({
          status: 'succeeded',
          endedAt: '2026-01-01T00:00:01.000Z',
        });
        expect(
          await store.recordVerdicts([sampleVerdict(runId, 'c1'), sampleVerdict(runId, 'c9')]),
        ).toEqual(['duplicate', 'closed']);
        expect(await store.verdictCount(runId)).toBe(2);
      });

      it('records nothing of a batch into a cancelled run, and each run of a mixed batch on its own', async () => {
        const other = (await store.createEvaluationRun(sampleEvaluationRun)).evaluationRunId;
        await store.cancelEvaluationRun(runId);
        expect(
          await store.recordVerdicts([
            sampleVerdict(runId, 'c1'),
            sampleVerdict(other, 'c1', { cacheEntry: cacheEntry('k-other') }),
            sampleVerdict(runId, 'c1'),
            sampleVerdict(other, 'c2', { cacheEntry: cacheEntry('k-other') }),
          ]),
        ).toEqual(['closed', 'recorded', 'closed', 'recorded']);
        expect(await store.verdictCount(runId)).toBe(0);
        expect(await store.verdictCount(other)).toBe(2);
        // two cases under one cache key: the first of the batch is kept
        expect((await store.cachedVerdict('k-other'))?.caseId).toBe('c1');
        await expect(store.recordVerdicts([sampleVerdict('nope', 'c1')])).rejects.toThrow(
          EvaluationRunNotFoundError,
        );
      });

      it("puts a batch's fresh results in the cache and reads many keys at once, in order", async () => {
        await store.recordVerdicts([
          sampleVerdict(runId, 'c1', { cacheEntry: cacheEntry('k1') }),
          sampleVerdict(runId, 'c2', {
            result: sampleResult(runId, 'c2', 'error'),
            cacheEntry: cacheEntry('k2'),
          }),
          sampleVerdict(runId, 'c3', { cacheEntry: cacheEntry('k3') }),
        ]);
        const found = await (await handle()).cachedVerdicts(['k3', 'k2', 'k1', 'k3', 'none']);
        expect(found.map((result) => result?.caseId ?? null)).toEqual([
          'c3',
          null,
          'c1',
          'c3',
          null,
        ]);
        expect(await store.cachedVerdicts([])).toEqual([]);
      });
    });

    describe('stored cases', () => {
      it("reads a run's cases under many keys at once, in order, null for a key it does not hold", async () => {
        const context = (caseId: string): JudgeContext => ({
          evaluationRunId: runId,
          caseId,
          subjectId: caseId,
          input: `input ${caseId}`,
          candidateOutput: `output ${caseId}`,
          observation: null as unknown as JudgeContext['observation'],
        });
        await store.recordCases(runId, [
          { caseKey: 'k1', context: context('c1') },
          { caseKey: 'k2', context: context('c2') },
        ]);
        const other = (await store.createEvaluationRun(sampleEvaluationRun)).evaluationRunId;
        await store.recordCases(other, [{ caseKey: 'k3', context: context('c3') }]);
        const found = await (await handle()).storedCases(runId, ['k2', 'k3', 'k1', 'k2']);
        expect(found).toEqual([
          { caseKey: 'k2', context: context('c2') },
          null,
          { caseKey: 'k1', context: context('c1') },
          { caseKey: 'k2', context: context('c2') },
        ]);
        expect(await store.storedCases(runId, [])).toEqual([]);
        expect(await store.storedCase(other, 'k3')).toEqual({
          caseKey: 'k3',
          context: context('c3'),
        });
      });
    });

    describe('the verdict cache', () => {
      it('keeps a fresh result under its key, in the verdict’s transaction', async () => {
        const verdict = sampleVerdict(runId, 'c1', { cacheEntry: cacheEntry('k1') });
        expect(await store.cachedVerdict('k1')).toBeNull();
        await store.recordVerdict(verdict);
        expect(await (await handle()).cachedVerdict('k1')).toEqual(verdict.result);
      });

      it('never caches an error result, nor a verdict without a cache entry', async () => {
        await store.recordVerdict(
          sampleVerdict(runId, 'c1', {
            result: sampleResult(runId, 'c1', 'error'),
            cacheEntry: cacheEntry('k-error'),
          }),
        );
        await store.recordVerdict(sampleVerdict(runId, 'c2'));
        expect(await store.cachedVerdict('k-error')).toBeNull();
        expect(await store.verdictCount(runId)).toBe(2);
      });

      it('a verdict refused (closed or duplicate) puts nothing in the cache', async () => {
        await store.recordVerdict(sampleVerdict(runId, 'c1'));
        await store.recordVerdict(sampleVerdict(runId, 'c1', { cacheEntry: cacheEntry('k-dup') }));
        await store.cancelEvaluationRun(runId);
        await store.recordVerdict(
          sampleVerdict(runId, 'c2', { cacheEntry: cacheEntry('k-closed') }),
        );
        expect(await store.cachedVerdict('k-dup')).toBeNull();
        expect(await store.cachedVerdict('k-closed')).toBeNull();
      });

      it('keeps the first result under a key: a later run judging the same prompt does not replace it', async () => {
        const first = sampleVerdict(runId, 'c1', { cacheEntry: cacheEntry('k1') });
        await store.recordVerdict(first);
        const later = (await store.createEvaluationRun(sampleEvaluationRun)).evaluationRunId;
        await store.recordVerdict(
          sampleVerdict(later, 'c1', {
            result: sampleResult(later, 'c1', 'failed'),
            cacheEntry: cacheEntry('k1'),
          }),
        );
        expect(await store.cachedVerdict('k1')).toEqual(first.result);
      });
    });

    describeCalibrationStoreContract(adapter, () => ({ store, clock }));

    it('a read-only handle records no calibration', async () => {
      const reader = await handle({ readonly: true });
      await expect(reader.recordCalibration(sampleCalibration())).rejects.toThrow(
        StoreReadOnlyError,
      );
    });

    describe('the sequential gate', () => {
      const gate = (folded: number, decision: 'pass' | 'fail' | null = null) => ({
        evaluationRunId: runId,
        seed: 4_000_000_000,
        total: 1000,
        orderSha256: 'e'.repeat(64),
        folded,
        state: { folded, logWealthPass: 0.25, tracks: [{ sum: folded / 2 }] },
        decision,
        decidedAt: decision === null ? null : folded,
        judged: folded + 3,
      });

      it('has none until one is saved, then reads back what was saved (a seed past 2^31 too)', async () => {
        expect(await store.sequentialGateOf(runId)).toBeNull();
        const saved = await store.saveSequentialGate(gate(0));
        expect(saved).toEqual({ ...gate(0), updatedAt: '2026-01-01T00:00:00.000Z' });
        expect(await (await handle()).sequentialGateOf(runId)).toEqual(saved);
      });

      it('keeps the fold state that folded furthest, and never writes over a decided gate', async () => {
        await store.saveSequentialGate(gate(10));
        expect((await store.saveSequentialGate(gate(7))).folded).toBe(10);
        await store.saveSequentialGate(gate(12, 'fail'));
        const after = await store.saveSequentialGate(gate(20));
        expect(after).toMatchObject({ folded: 12, decision: 'fail', decidedAt: 12, judged: 15 });
        expect(after.state).toEqual(gate(12).state);
      });

      it('refuses a gate of a run it does not hold', async () => {
        await expect(
          store.saveSequentialGate({ ...gate(0), evaluationRunId: 'nope' }),
        ).rejects.toBeInstanceOf(EvaluationRunNotFoundError);
      });
    });

    describe('handles', () => {
      /** A second handle, and `count` cases the run expects, with every connection of both handles open first, so the calls really overlap. */
      const racingHandles = async (count: number) => {
        const other = await handle();
        const cases = Array.from({ length: count }, (_, index) => `c${index}`);
        await store.setCasesTotal(runId, cases.length, 0);
        await Promise.all(
          cases.flatMap(() => [store.verdictCount(runId), other.verdictCount(runId)]),
        );
        return { other, cases };
      };

      it('a read-only handle reads what another wrote and writes nothing', async () => {
        await store.recordVerdict(sampleVerdict(runId, 'c1', { cacheEntry: cacheEntry('k1') }));
        const reader = await handle({ readonly: true });
        expect(await reader.verdictCount(runId)).toBe(1);
        expect(await reader.cachedVerdict('k1')).not.toBeNull();
        for (const write of [
          () => reader.createEvaluationRun(sampleEvaluationRun),
          () => reader.setCasesTotal(runId, 1, 0),
          () => reader.cancelEvaluationRun(runId),
          () => reader.failEvaluationRun(runId, 'no'),
          () => reader.recordVerdict(sampleVerdict(runId, 'c2')),
          () => reader.recordVerdicts([sampleVerdict(runId, 'c2')]),
        ]) {
          await expect(write()).rejects.toThrow(StoreReadOnlyError);
        }
        expect((await store.getEvaluationRun(runId)).status).toBe('running');
      });

      it('two handles racing batches of overlapping cases count each case once and finish the run', async () => {
        const { other, cases } = await racingHandles(30);
        // batches of 7 and 5 over the same cases, in opposite orders: every batch meets another
        const batches = (racer: JudgeStore, size: number, order: readonly string[]) =>
          Array.from({ length: Math.ceil(order.length / size) }, (_, index) =>
            racer.recordVerdicts(
              order.slice(index * size, (index + 1) * size).map((id) => sampleVerdict(runId, id)),
            ),
          );
        const fates = (
          await Promise.all([
            ...batches(store, 7, cases),
            ...batches(other, 5, [...cases].reverse()),
          ])
        ).flat();
        expect(fates.filter((fate) => fate === 'recorded')).toHaveLength(cases.length);
        expect(fates.filter((fate) => fate === 'duplicate')).toHaveLength(cases.length);
        expect(await store.verdictCount(runId)).toBe(cases.length);
        expect(await store.verdicts(runId, { limit: 100 })).toHaveLength(cases.length);
        expect((await store.getEvaluationRun(runId)).status).toBe('succeeded');
      });

      it('two handles racing on the same cases record exactly one verdict each', async () => {
        const { other, cases } = await racingHandles(24);
        const calls = cases.flatMap((caseId, index) =>
          [store, other, other, store].map((racer, attempt) =>
            racer.recordVerdict(
              sampleVerdict(runId, caseId, {
                worker: `w${(index + attempt) % 2}`,
                cacheEntry: cacheEntry(`k-${caseId}`),
              }),
            ),
          ),
        );
        const outcomes = await Promise.all(calls);
        for (let index = 0; index < cases.length; index++) {
          const forCase = outcomes.slice(index * 4, index * 4 + 4);
          expect(forCase.filter((outcome) => outcome === 'recorded')).toHaveLength(1);
          expect(forCase.filter((outcome) => outcome === 'duplicate')).toHaveLength(3);
        }
        expect(await other.verdictCount(runId)).toBe(cases.length);
        expect((await other.getEvaluationRun(runId)).status).toBe('succeeded');
        const stored = await store.verdicts(runId, { limit: 100 });
        expect(new Set(stored.map((verdict) => verdict.caseKey)).size).toBe(cases.length);
      });

      it('the last two verdicts, racing on two handles, still finish their run', async () => {
        const other = await handle();
        const runs = await Promise.all(
          Array.from({ length: 12 }, async () => {
            const id = (await store.createEvaluationRun(sampleEvaluationRun)).evaluationRunId;
            await store.setCasesTotal(id, 2, 0);
            return id;
          }),
        );
        // every connection of both handles open first, so the two verdicts of a run really overlap
        await Promise.all(
          runs.flatMap((id) => [store.getEvaluationRun(id), other.getEvaluationRun(id)]),
        );
        await Promise.all(
          runs.flatMap((id) => [
            store.recordVerdict(sampleVerdict(id, 'c1')),
            other.recordVerdict(sampleVerdict(id, 'c2')),
          ]),
        );
        const statuses = await Promise.all(
          runs.map(async (id) => (await other.getEvaluationRun(id)).status),
        );
        expect(statuses).toEqual(runs.map(() => 'succeeded'));
      });
    });
  });
}
