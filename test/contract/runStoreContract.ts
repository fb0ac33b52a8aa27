import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock, type ManualClock } from '../../src/ports/runtime/clock.js';
import { createRunIdGenerator } from '../../src/ports/runtime/runId.js';
import { rewindToLatestSnapshot } from '../../src/ports/store/rewindRun.js';
import type { StoreOptions } from '../../src/ports/store/sqlite/sqliteStore.js';
import type { LeaseOwner, RunStore } from '../../src/ports/store/store.js';
import { encodeStoredJson } from '../../src/ports/store/storedJson.js';
import {
  DuplicateRecordError,
  InvalidRecordError,
  LeaseLostError,
  PhaseNotFoundError,
  RunLeasedError,
  RunNotFoundError,
  StoreReadOnlyError,
  SweepNotFoundError,
} from '../../src/ports/store/storeErrors.js';
import {
  fillSampleRun,
  sampleCheckpoint,
  sampleEpisode,
  sampleMetaDecision,
  sampleRunFile,
  sampleStart,
} from '../unit/store/sampleRun.js';

/** Opens handles on one new, empty store; each handle is what one process would hold. */
export type OpenHandle = (options?: StoreOptions) => RunStore;

/** How a contract run gets its stores: a new, empty location per test. */
export interface StoreHarness {
  newStore(): Promise<OpenHandle>;
}

const alice: LeaseOwner = { id: 'pid 1 on lab-1 (a)', host: 'lab-1', pid: 1 };
const bob: LeaseOwner = { id: 'pid 2 on lab-2 (b)', host: 'lab-2', pid: 2 };

/** Every record of a run but its id, to compare two runs. */
export function everything(store: RunStore, id: string) {
  const withoutId = <T extends { runId: string }>(records: T[]) =>
    records.map(({ runId: _runId, ...rest }) => rest);
  const snapshot = store.latestSnapshot(id);
  return {
    run: (({ runId: _runId, lease: _lease, startedAt: _s, endedAt: _e, ...rest }) => rest)(
      store.getRun(id),
    ),
    phases: withoutId(store.phases(id)),
    episodes: withoutId(store.episodes(id)),
    checkpoints: withoutId(store.checkpoints(id)),
    metaDecisions: withoutId(store.metaDecisions(id)),
    latestSnapshot: snapshot === null ? null : (({ runId: _runId, ...rest }) => rest)(snapshot),
    snapshots: store.snapshotCount(id),
    summary: store.episodeSummary(id),
  };
}

/**
 * The RunStore contract: what every adapter (SQLite, PostgreSQL) must do the
 * same, method for method, error for error.
 */
export function describeRunStoreContract(adapter: string, harness: StoreHarness): void {
  describe(`${adapter} run store contract`, () => {
    const runId = 'r1';
    let open: OpenHandle;
    let clock: ManualClock;
    let store: RunStore;
    const handles: RunStore[] = [];
    const handle = (options: StoreOptions = {}): RunStore => {
      const opened = open({ clock, ...options });
      handles.push(opened);
      return opened;
    };

    beforeEach(async () => {
      open = await harness.newStore();
      clock = fixedClock(sampleStart);
      store = handle();
      store.createRun({
        runId,
        uid: 'grid-demo',
        seed: 42,
        runFile: sampleRunFile,
        runFilePath: 'run.yaml',
      });
      store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
    });
    afterEach(() => {
      for (const opened of handles.splice(0)) opened.close();
    });

    describe('round trips', () => {
      it('creates a run as running and finishes it with its outcome', () => {
        expect(store.getRun(runId)).toEqual({
          runId,
          uid: 'grid-demo',
          seed: 42,
          runFile: sampleRunFile,
          runFilePath: 'run.yaml',
          runFileSha256: null,
          modules: null,
          status: 'running',
          startedAt: '2026-11-29T20:07:02.000Z',
          endedAt: null,
          error: null,
          summary: null,
          lease: null,
        });
        const finished = store.finishRun(runId, {
          status: 'failed',
          error: 'environment crashed',
          summary: { episodes: 3, metrics: { reward: 0.5 } },
          endedAt: '2026-11-29T21:00:00.000Z',
        });
        expect(finished).toMatchObject({
          status: 'failed',
          error: 'environment crashed',
          summary: { episodes: 3, metrics: { reward: 0.5 } },
          endedAt: '2026-11-29T21:00:00.000Z',
        });
        expect(store.getRun(runId)).toEqual(finished);
      });

      it('keeps the run file hash, the module fingerprints and an extreme seed', () => {
        const modules = [{ file: '/w/env.js', sha256: 'ab'.repeat(32) }];
        const run = store.createRun({
          runId: 'hashed',
          uid: 'u',
          seed: Number.MIN_SAFE_INTEGER,
          runFile: 'ü: "ä"\n',
          runFilePath: '/w/run.yaml',
          runFileSha256: 'cd'.repeat(32),
          modules,
        });
        expect(run).toMatchObject({
          seed: Number.MIN_SAFE_INTEGER,
          runFile: 'ü: "ä"\n',
          runFileSha256: 'cd'.repeat(32),
          modules,
        });
      });

      it('names a run from its uid, the clock and a random suffix, and retries a colliding one', () => {
        const suffixes = ['3fa2', '3fa2', '77aa'];
        const named = handle({
          newRunId: createRunIdGenerator({ randomHex: () => suffixes.shift() ?? 'ffff' }),
        });
        expect(
          named.createRun({ uid: 'grid demo', seed: 1, runFile: '', runFilePath: 'a' }).runId,
        ).toBe('grid-demo-20261129T200702-3fa2');
        expect(
          named.createRun({ uid: 'grid demo', seed: 1, runFile: '', runFilePath: 'a' }).runId,
        ).toBe('grid-demo-20261129T200702-77aa');
        expect(() =>
          store.createRun({ runId, uid: 'x', seed: 1, runFile: '', runFilePath: 'a' }),
        ).toThrow(DuplicateRecordError);
      });

      it('starts a phase as running with 0 episodes and finishes it, at the clock\u2019s time unless told', () => {
        expect(store.phases(runId)).toEqual([
          {
            runId,
            phaseIndex: 0,
            name: 'train',
            mode: 'train',
            status: 'running',
            terminationReason: null,
            episodes: 0,
            error: null,
            startedAt: '2026-11-29T20:07:02.000Z',
            endedAt: null,
          },
        ]);
        const done = store.finishPhase(runId, 0, {
          status: 'failed',
          terminationReason: 'failed',
          episodes: 7,
          error: 'boom',
          endedAt: '2026-11-29T20:08:00.000Z',
        });
        expect(done).toMatchObject({
          status: 'failed',
          terminationReason: 'failed',
          episodes: 7,
          error: 'boom',
        });
        expect(store.phases(runId)).toEqual([done]);
        expect(() =>
          store.startPhase({ runId, phaseIndex: 0, name: 'again', mode: 'train' }),
        ).toThrow(DuplicateRecordError);
        store.startPhase({ runId, phaseIndex: 1, name: 'test', mode: 'test' });
        clock.advance(1000);
        const clocked = store.finishPhase(runId, 1, {
          status: 'done',
          terminationReason: 'plateau',
          episodes: 7,
        });
        expect(clocked).toMatchObject({
          status: 'done',
          terminationReason: 'plateau',
          error: null,
        });
        expect(clocked.endedAt).toBe('2026-11-29T20:07:03.000Z');
      });

      it('reads back episodes by phase and in episode order, whatever order they were written in', () => {
        store.startPhase({ runId, phaseIndex: 1, name: 'test', mode: 'test' });
        const testing = sampleEpisode(runId, 1, 1, { mode: 'test', episodeReturn: -0.125 });
        store.recordEpisode(testing);
        store.recordEpisode(sampleEpisode(runId, 0, 2, { doneReason: 'max_steps' }));
        store.recordEpisode(sampleEpisode(runId, 0, 1, { evaluation: true, episodeReturn: -0.1 }));
        expect(store.episodes(runId).map((e) => [e.phaseIndex, e.episode])).toEqual([
          [0, 1],
          [0, 2],
          [1, 1],
        ]);
        expect(store.episodes(runId, 0)).toEqual([
          sampleEpisode(runId, 0, 1, { evaluation: true, episodeReturn: -0.1 }),
          sampleEpisode(runId, 0, 2, { doneReason: 'max_steps' }),
        ]);
        expect(store.episodes(runId, 1)).toEqual([testing]);
        expect(store.episodes(runId, 5)).toEqual([]);
      });

      it('reads back checkpoints, meta decisions and snapshots of a whole run as written', () => {
        const id = fillSampleRun(store, 'whole');
        expect(store.checkpoints(id)).toEqual([
          sampleCheckpoint(id, 0, 0, 3, 0.5),
          sampleCheckpoint(id, 0, 1, 6, 1.5),
        ]);
        expect(store.checkpoints(id, 0)).toHaveLength(2);
        expect(store.checkpoints(id, 1)).toEqual([]);
        expect(store.metaDecisions(id)).toEqual([sampleMetaDecision(id, 0)]);
        expect(store.latestSnapshot(id)).toEqual({
          runId: id,
          phaseIndex: 0,
          episode: 6,
          createdAt: '2026-11-29T20:07:02.000Z',
          state: { episode: 6, rng: [1, 2, 3] },
        });
        expect(store.snapshotCount(id)).toBe(2);
        expect(store.getRun(id)).toMatchObject({ status: 'succeeded', summary: { episodes: 6 } });
      });

      it('reads back a rejected checkpoint with its error, in checkpoint order whatever the writing order', () => {
        const rejected = {
          ...sampleCheckpoint(runId, 0, 1, 4, 0.8),
          status: 'rejected' as const,
          error: { code: 'OUT_OF_ORDER', message: 'evaluation episode 1 after 2' },
        };
        store.recordCheckpoint(rejected);
        store.recordCheckpoint(sampleCheckpoint(runId, 0, 0, 2, 0.75));
        expect(store.checkpoints(runId)).toEqual([
          sampleCheckpoint(runId, 0, 0, 2, 0.75),
          rejected,
        ]);
      });

      it('summarises episode count and mean return per phase and kind, in phase order', () => {
        const id = fillSampleRun(store, 'whole');
        expect(store.episodeSummary(id)).toEqual([
          { phaseIndex: 0, evaluation: false, count: 4, meanReturn: (1.5 + 3 + 6 + 7.5) / 4 },
          { phaseIndex: 0, evaluation: true, count: 2, meanReturn: 2 },
        ]);
        expect(store.episodeSummary(runId)).toEqual([]);
      });

      it('returns the newest snapshot, and a second save at one barrier replaces the first', () => {
        expect(store.latestSnapshot(runId)).toBeNull();
        store.saveSnapshot({ runId, phaseIndex: 0, episode: 2, state: { v: 1 } });
        store.saveSnapshot({ runId, phaseIndex: 0, episode: 1, state: { v: 0 } });
        store.saveSnapshot({
          runId,
          phaseIndex: 0,
          episode: 2,
          state: { v: 2 },
          createdAt: '2026-11-29T20:09:00.000Z',
        });
        expect(store.latestSnapshot(runId)).toMatchObject({
          episode: 2,
          state: { v: 2 },
          createdAt: '2026-11-29T20:09:00.000Z',
        });
        expect(store.snapshotCount(runId)).toBe(2);
        // a later phase's snapshot is newer than any of an earlier phase
        store.startPhase({ runId, phaseIndex: 1, name: 'test', mode: 'test' });
        store.saveSnapshot({ runId, phaseIndex: 1, episode: 1, state: 'phase 1' });
        store.saveSnapshot({ runId, phaseIndex: 0, episode: 9, state: 'phase 0' });
        expect(store.latestSnapshot(runId)).toMatchObject({ phaseIndex: 1, episode: 1 });
      });

      it('lists runs newest first (ties by id in byte order), up to the limit', () => {
        const at = (iso: string) => ({
          startedAt: iso,
          uid: 'u',
          seed: 1,
          runFile: '',
          runFilePath: 'a',
        });
        store.createRun({ runId: 'b-late', ...at('2026-11-30T00:00:00.000Z') });
        store.createRun({ runId: 'B-late', ...at('2026-11-30T00:00:00.000Z') });
        store.createRun({ runId: 'a-early', ...at('2026-11-28T00:00:00.000Z') });
        expect(store.listRuns().map((run) => run.runId)).toEqual([
          'b-late',
          'B-late',
          runId,
          'a-early',
        ]);
        expect(store.listRuns({ limit: 2 }).map((run) => run.runId)).toEqual(['b-late', 'B-late']);
      });

      it('numbers resumes from 1 and lists them in order', () => {
        clock.advance(1000);
        const first = store.recordResume({
          runId,
          owner: alice.id,
          phaseIndex: 0,
          episode: 3,
          forced: false,
          changedModules: [],
        });
        const second = store.recordResume({
          runId,
          owner: bob.id,
          phaseIndex: 0,
          episode: 5,
          forced: true,
          changedModules: ['/w/env.js'],
        });
        expect(first).toEqual({
          runId,
          resumeIndex: 1,
          resumedAt: '2026-11-29T20:07:03.000Z',
          owner: alice.id,
          phaseIndex: 0,
          episode: 3,
          forced: false,
          changedModules: [],
        });
        expect(second).toMatchObject({
          resumeIndex: 2,
          forced: true,
          changedModules: ['/w/env.js'],
        });
        expect(store.resumes(runId)).toEqual([first, second]);
      });

      it('records which instance served each remote component, once per session, in the order opened, kept through a rewind', () => {
        const served = {
          runId,
          phaseIndex: 0,
          kind: 'environment',
          component: 'tank',
          service: 'tank-sim',
          instance: 'b1946ac92492d234',
          host: 'lab-1',
          pid: 4242,
        };
        store.recordRemoteComponent({ ...served, session: 's-2' });
        clock.advance(1000);
        store.recordRemoteComponent({
          ...served,
          session: 's-1',
          kind: 'brain',
          component: 'operator',
          host: null,
          pid: null,
        });
        // the same session again (a retried open) writes nothing
        store.recordRemoteComponent({ ...served, session: 's-2', instance: 'another' });
        const expected = [
          { ...served, session: 's-2', openedAt: '2026-11-29T20:07:02.000Z' },
          {
            ...served,
            session: 's-1',
            kind: 'brain',
            component: 'operator',
            host: null,
            pid: null,
            openedAt: '2026-11-29T20:07:03.000Z',
          },
        ];
        expect(handle({ readonly: true }).remoteComponents(runId)).toEqual(expected);
        store.rewindToStart(runId);
        expect(store.remoteComponents(runId)).toEqual(expected);
        expect(() => store.remoteComponents('nope')).toThrow(RunNotFoundError);
        expect(() =>
          store.recordRemoteComponent({ ...served, runId: 'nope', session: 's' }),
        ).toThrow(RunNotFoundError);
        expect(() =>
          handle({ readonly: true }).recordRemoteComponent({ ...served, session: 's-3' }),
        ).toThrow(StoreReadOnlyError);
      });
    });

    describe('sweeps', () => {
      const newSweep = {
        uid: 'sizes',
        sweepFile: 'sweep: sizes\n',
        sweepFilePath: '/w/sweep.yaml',
        state: { trials: [], decisions: [] },
      };

      it('creates a sweep as running, saves its state at each decision and reads it from another handle', () => {
        const created = store.createSweep({ ...newSweep, sweepId: 's1' });
        expect(created).toEqual({
          sweepId: 's1',
          uid: 'sizes',
          sweepFile: 'sweep: sizes\n',
          sweepFilePath: '/w/sweep.yaml',
          status: 'running',
          state: { decisions: [], trials: [] },
          error: null,
          createdAt: sampleStart.toISOString(),
          updatedAt: sampleStart.toISOString(),
        });
        clock.advance(1000);
        const saved = store.saveSweep('s1', {
          status: 'succeeded',
          state: { trials: [{ index: 0 }], decisions: [{ rung: 3, pruned: [1] }], ratio: 0.5 },
        });
        expect(saved.updatedAt).toBe(new Date(sampleStart.getTime() + 1000).toISOString());
        expect(handle({ readonly: true }).getSweep('s1')).toEqual(saved);
        expect(saved.state).toEqual({
          decisions: [{ pruned: [1], rung: 3 }],
          ratio: 0.5,
          trials: [{ index: 0 }],
        });
      });

      it('names a sweep from its uid, lists sweeps newest first and names a missing one', () => {
        const first = store.createSweep(newSweep);
        expect(first.sweepId.startsWith('sizes-')).toBe(true);
        clock.advance(1000);
        const second = store.createSweep(newSweep);
        expect(store.listSweeps().map((sweep) => sweep.sweepId)).toEqual([
          second.sweepId,
          first.sweepId,
        ]);
        expect(() => store.getSweep('nope')).toThrow(SweepNotFoundError);
        expect(() => store.saveSweep('nope', { status: 'failed', state: {} })).toThrow(
          SweepNotFoundError,
        );
        expect(() => store.createSweep({ ...newSweep, sweepId: first.sweepId })).toThrow(
          DuplicateRecordError,
        );
      });

      it('records which run is which trial, with where it holds, and moves the hold', () => {
        store.createSweep({ ...newSweep, sweepId: 's1' });
        store.createRun({
          runId: 'r2',
          uid: 'grid-demo',
          seed: 1,
          runFile: '',
          runFilePath: 'run.yaml',
        });
        const parameters = [{ pointer: '/seed', value: 7 }];
        store.recordTrial({ sweepId: 's1', trialIndex: 1, runId: 'r2', parameters, holdAt: 3 });
        store.recordTrial({ sweepId: 's1', trialIndex: 0, runId, parameters: [], holdAt: null });
        expect(store.sweepTrials('s1').map((trial) => [trial.trialIndex, trial.runId])).toEqual([
          [0, runId],
          [1, 'r2'],
        ]);
        expect(store.trialOfRun('r2')).toEqual({
          sweepId: 's1',
          trialIndex: 1,
          runId: 'r2',
          parameters: [{ pointer: '/seed', value: 7 }],
          holdAt: 3,
        });
        store.holdTrial('r2', 6);
        expect(handle({ readonly: true }).trialOfRun('r2')?.holdAt).toBe(6);
        store.holdTrial('r2', null);
        expect(store.trialOfRun('r2')?.holdAt).toBeNull();
        expect(store.trialOfRun('nope')).toBeNull();
        expect(() => store.holdTrial('nope', 1)).toThrow(RunNotFoundError);
        expect(() =>
          store.recordTrial({ sweepId: 's1', trialIndex: 1, runId: 'r2', parameters, holdAt: 3 }),
        ).toThrow(DuplicateRecordError);
        expect(() =>
          store.recordTrial({ sweepId: 's1', trialIndex: 2, runId: 'nope', parameters, holdAt: 3 }),
        ).toThrow(RunNotFoundError);
        expect(() => store.sweepTrials('nope')).toThrow(SweepNotFoundError);
      });

      it('keeps a sweep and its trials only when their transaction commits, and refuses them read-only', () => {
        expect(() =>
          store.transaction(() => {
            store.createSweep({ ...newSweep, sweepId: 's1' });
            store.recordTrial({ sweepId: 's1', trialIndex: 0, runId, parameters: [], holdAt: 3 });
            throw new Error('crash');
          }),
        ).toThrow('crash');
        expect(() => store.getSweep('s1')).toThrow(SweepNotFoundError);
        expect(store.trialOfRun(runId)).toBeNull();
        expect(() => handle({ readonly: true }).createSweep(newSweep)).toThrow(StoreReadOnlyError);
      });
    });

    describe('canonical JSON', () => {
      const awkward = {
        zeta: 1,
        alpha: {
          b: [1.5, -0.000001, 1e-7, 1.7976931348623157e308, 5e-324],
          a: 'ä\u0000\ud800 "q"',
        },
        nan: Number.NaN,
        up: Number.POSITIVE_INFINITY,
        down: Number.NEGATIVE_INFINITY,
        '': null,
        long_key_first: true,
        k: 0.30000000000000004,
      };

      it('reads every JSON field back equal, non-finite numbers included, with keys in canonical order', () => {
        store.saveSnapshot({ runId, phaseIndex: 0, episode: 0, state: awkward });
        store.recordEpisode(sampleEpisode(runId, 0, 1, { returnsByAgent: awkward }));
        store.recordCheckpoint({
          ...sampleCheckpoint(runId, 0, 0, 1, 0.5),
          outcomes: [awkward],
          decision: awkward,
          error: awkward,
        });
        store.recordMetaDecision({ ...sampleMetaDecision(runId, 0), record: awkward });
        store.finishRun(runId, { status: 'succeeded', summary: awkward });
        const readBack = [
          store.latestSnapshot(runId)?.state,
          store.episodes(runId)[0]?.returnsByAgent,
          (store.checkpoints(runId)[0]?.outcomes as unknown[] | undefined)?.[0],
          store.checkpoints(runId)[0]?.decision,
          store.checkpoints(runId)[0]?.error,
          store.metaDecisions(runId)[0]?.record,
          store.getRun(runId).summary,
        ];
        for (const value of readBack) {
          expect(value).toEqual(awkward);
          expect(encodeStoredJson(value)).toBe(encodeStoredJson(awkward));
          // canonical order: a restored snapshot iterates its keys as a SQLite one does
          expect(Object.keys(value as object)).toEqual(Object.keys(awkward).sort());
        }
      });
    });

    describe('errors', () => {
      it('throws RunNotFoundError naming an unknown run id, on reads and writes', () => {
        const calls: Array<() => unknown> = [
          () => store.getRun('nope'),
          () => store.phases('nope'),
          () => store.episodes('nope'),
          () => store.episodeSummary('nope'),
          () => store.checkpoints('nope'),
          () => store.metaDecisions('nope'),
          () => store.latestSnapshot('nope'),
          () => store.snapshotCount('nope'),
          () => store.resumes('nope'),
          () => store.finishRun('nope', { status: 'succeeded' }),
          () => store.startPhase({ runId: 'nope', phaseIndex: 0, name: 'p', mode: 'train' }),
          () =>
            store.finishPhase('nope', 0, { status: 'done', terminationReason: null, episodes: 0 }),
          () => store.recordEpisode(sampleEpisode('nope', 0, 1)),
          () => store.recordCheckpoint(sampleCheckpoint('nope', 0, 0, 1, 0.5)),
          () => store.recordMetaDecision(sampleMetaDecision('nope', 0)),
          () => store.saveSnapshot({ runId: 'nope', phaseIndex: 0, episode: 1, state: {} }),
          () => store.acquireLease('nope', { owner: alice, ttlMs: 1000 }),
          () => store.requireLease({ runId: 'nope', owner: alice, token: 1 }),
          () =>
            store.recordResume({
              runId: 'nope',
              owner: 'x',
              phaseIndex: 0,
              episode: 0,
              forced: false,
              changedModules: [],
            }),
          () => store.truncateAfter('nope', { phaseIndex: 0, episode: 0 }),
          () => store.truncateAfter('nope', { phaseIndex: 0, episode: 1 }),
          () => store.rewindToStart('nope'),
        ];
        for (const call of calls) {
          expect(call).toThrow(RunNotFoundError);
          expect(call).toThrow("no run 'nope' in the store");
        }
      });

      it('throws PhaseNotFoundError for a record of a phase never started', () => {
        const calls: Array<() => unknown> = [
          () => store.recordEpisode(sampleEpisode(runId, 3, 1)),
          () => store.recordCheckpoint(sampleCheckpoint(runId, 3, 0, 1, 0.5)),
          () => store.recordMetaDecision(sampleMetaDecision(runId, 3)),
          () => store.saveSnapshot({ runId, phaseIndex: 3, episode: 1, state: {} }),
          () =>
            store.finishPhase(runId, 3, { status: 'done', terminationReason: null, episodes: 0 }),
        ];
        for (const call of calls) {
          expect(call).toThrow(PhaseNotFoundError);
          expect(call).toThrow(`run '${runId}' has no phase 3`);
        }
      });

      it('refuses to store the same episode, checkpoint or meta decision twice', () => {
        store.recordEpisode(sampleEpisode(runId, 0, 1));
        store.recordCheckpoint(sampleCheckpoint(runId, 0, 0, 1, 0.5));
        store.recordMetaDecision(sampleMetaDecision(runId, 0));
        expect(() => store.recordEpisode(sampleEpisode(runId, 0, 1, { episodeReturn: 9 }))).toThrow(
          `episode 1 of phase 0 of run '${runId}' is already stored`,
        );
        expect(() => store.recordCheckpoint(sampleCheckpoint(runId, 0, 0, 1, 0.9))).toThrow(
          DuplicateRecordError,
        );
        expect(() => store.recordMetaDecision(sampleMetaDecision(runId, 0))).toThrow(
          DuplicateRecordError,
        );
        expect(store.episodes(runId)).toEqual([sampleEpisode(runId, 0, 1)]);
      });

      it('rejects a non-finite episode return and a 0th episode, naming the field', () => {
        expect(() =>
          store.recordEpisode(sampleEpisode(runId, 0, 1, { episodeReturn: Number.NaN })),
        ).toThrow(new InvalidRecordError('episodeReturn', 'a finite number', Number.NaN));
        expect(() => store.recordEpisode(sampleEpisode(runId, 0, 0))).toThrow(
          'episode must be an integer >= 1, got 0',
        );
        expect(store.episodes(runId)).toEqual([]);
      });

      it('keeps what one handle stored for a handle opened after it closed', () => {
        const first = handle();
        const id = fillSampleRun(first, 'whole');
        first.close();
        const again = handle();
        expect(again.getRun(id).status).toBe('succeeded');
        expect(everything(again, id)).toEqual(everything(store, id));
        expect(again.episodes(id)).toHaveLength(6);
      });

      it('opened read-only, reads what another handle wrote and refuses every write', () => {
        fillSampleRun(store, 'whole');
        const reader = handle({ readonly: true });
        expect(reader.readonly).toBe(true);
        expect(everything(reader, 'whole')).toEqual(everything(store, 'whole'));
        const lease = { runId, owner: alice, token: 1 };
        const writes: Array<() => unknown> = [
          () => reader.createRun({ uid: 'u', seed: 1, runFile: '', runFilePath: 'a' }),
          () => reader.acquireLease(runId, { owner: alice, ttlMs: 1000 }),
          () => reader.renewLease(lease, 1000),
          () => reader.releaseLease(lease),
          () =>
            reader.recordResume({
              runId,
              owner: 'x',
              phaseIndex: 0,
              episode: 0,
              forced: false,
              changedModules: [],
            }),
          () => reader.finishRun(runId, { status: 'succeeded' }),
          () => reader.startPhase({ runId, phaseIndex: 1, name: 'p', mode: 'train' }),
          () =>
            reader.finishPhase(runId, 0, { status: 'done', terminationReason: null, episodes: 0 }),
          () => reader.recordEpisode(sampleEpisode(runId, 0, 1)),
          () => reader.recordCheckpoint(sampleCheckpoint(runId, 0, 0, 1, 0.5)),
          () => reader.recordMetaDecision(sampleMetaDecision(runId, 0)),
          () => reader.saveSnapshot({ runId, phaseIndex: 0, episode: 1, state: {} }),
          () => reader.truncateAfter(runId, { phaseIndex: 0, episode: 0 }),
          () => reader.rewindToStart(runId),
        ];
        for (const write of writes) expect(write).toThrow(StoreReadOnlyError);
        expect(store.getRun(runId).status).toBe('running');
      });
    });

    describe('transactions', () => {
      it('lands all of a transaction\u2019s writes, or none when it throws', () => {
        store.transaction(() => {
          store.recordEpisode(sampleEpisode(runId, 0, 1));
          store.saveSnapshot({ runId, phaseIndex: 0, episode: 1, state: { at: 1 } });
        });
        expect(() =>
          store.transaction(() => {
            store.recordEpisode(sampleEpisode(runId, 0, 2));
            store.saveSnapshot({ runId, phaseIndex: 0, episode: 2, state: { at: 2 } });
            throw new Error('killed at the barrier');
          }),
        ).toThrow('killed at the barrier');
        expect(store.episodes(runId).map((e) => e.episode)).toEqual([1]);
        expect(store.latestSnapshot(runId)?.state).toEqual({ at: 1 });
      });

      it('rolls back only the inner transaction that failed, and a refused record fails only itself', () => {
        const result = store.transaction(() => {
          store.recordEpisode(sampleEpisode(runId, 0, 1));
          expect(() =>
            store.transaction(() => {
              store.recordEpisode(sampleEpisode(runId, 0, 2));
              throw new Error('inner');
            }),
          ).toThrow('inner');
          expect(() => store.recordEpisode(sampleEpisode(runId, 0, 1))).toThrow(
            DuplicateRecordError,
          );
          expect(() => store.recordEpisode(sampleEpisode(runId, 7, 1))).toThrow(PhaseNotFoundError);
          store.recordEpisode(sampleEpisode(runId, 0, 3));
          return 'committed';
        });
        expect(result).toBe('committed');
        expect(store.episodes(runId).map((e) => e.episode)).toEqual([1, 3]);
      });
    });

    describe('leases', () => {
      it('gives a free run to the first owner and refuses a second while it is live, naming the holder', () => {
        const lease = store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
        expect(lease).toEqual({ runId, owner: alice, token: 1 });
        expect(store.getRun(runId).lease).toEqual({
          owner: alice,
          heartbeatAt: '2026-11-29T20:07:02.000Z',
          expiresAt: '2026-11-29T20:07:17.000Z',
        });
        clock.advance(2000);
        expect(() => store.acquireLease(runId, { owner: bob, ttlMs: 15_000 })).toThrow(
          RunLeasedError,
        );
        expect(() => store.acquireLease(runId, { owner: bob, ttlMs: 15_000 })).toThrow(
          `is being run by ${alice.id} (last heartbeat 2 s ago, its lease lapses in 13 s)`,
        );
        // the same owner may take its own lease again, with a new token
        expect(store.acquireLease(runId, { owner: alice, ttlMs: 15_000 }).token).toBe(2);
      });

      it('shows the worker a lease holder names, as every reader sees it', () => {
        const worker: LeaseOwner = { ...bob, worker: 'gpu-1' };
        store.acquireLease(runId, { owner: worker, ttlMs: 15_000 });
        expect(handle().getRun(runId).lease?.owner).toEqual(worker);
      });

      it('lets another handle take over a lapsed lease, and fences the old holder off', () => {
        const other = handle();
        const old = store.acquireLease(runId, { owner: alice, ttlMs: 1000 });
        clock.advance(1001);
        const taken = other.acquireLease(runId, { owner: bob, ttlMs: 15_000 });
        expect(taken.token).toBe(old.token + 1);
        expect(() => store.requireLease(old)).toThrow(LeaseLostError);
        expect(() => store.renewLease(old, 1000)).toThrow(`(${bob.id} holds it now)`);
        expect(() =>
          store.transaction(() => {
            store.recordEpisode(sampleEpisode(runId, 0, 1));
            store.requireLease(old);
          }),
        ).toThrow(LeaseLostError);
        expect(store.episodes(runId)).toEqual([]);
        store.releaseLease(old);
        expect(other.getRun(runId).lease?.owner).toEqual(bob);
        other.requireLease(taken);
      });

      it('takes over a live lease only when told the holder is gone', () => {
        store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
        expect(() =>
          store.acquireLease(runId, { owner: bob, ttlMs: 15_000, takeOver: () => false }),
        ).toThrow(RunLeasedError);
        const seen: string[] = [];
        const lease = store.acquireLease(runId, {
          owner: bob,
          ttlMs: 15_000,
          takeOver: (holder) => {
            seen.push(holder.owner.id);
            return true;
          },
        });
        expect(seen).toEqual([alice.id]);
        expect(lease.token).toBe(2);
      });

      it('keeps a renewed lease alive past its first expiry, and frees the run on release', () => {
        const lease = store.acquireLease(runId, { owner: alice, ttlMs: 1000 });
        clock.advance(900);
        store.renewLease(lease, 1000);
        clock.advance(900);
        expect(() => store.acquireLease(runId, { owner: bob, ttlMs: 1000 })).toThrow(
          RunLeasedError,
        );
        store.releaseLease(lease);
        expect(store.getRun(runId).lease).toBeNull();
        expect(() => store.requireLease(lease)).toThrow('nobody holds it now');
        expect(() => store.renewLease(lease, 1000)).toThrow(LeaseLostError);
        const next = store.acquireLease(runId, { owner: bob, ttlMs: 1000 });
        store.releaseLease(lease);
        expect(store.getRun(runId).lease?.owner).toEqual(bob);
        expect(next.token).toBe(2);
      });
    });

    describe('deliveries', () => {
      it('counts each claimed delivery from 1, committed for every handle, with who claimed it', () => {
        expect(store.deliveryCount(runId)).toEqual({ claimed: 0, settled: 0, owner: null });
        expect(store.claimDelivery(runId, alice)).toBe(1);
        const worker: LeaseOwner = { ...bob, worker: 'w2' };
        expect(handle().claimDelivery(runId, worker)).toBe(2);
        expect(handle({ readonly: true }).deliveryCount(runId)).toEqual({
          claimed: 2,
          settled: 0,
          owner: worker,
        });
      });

      it('settles a claimed delivery, never an older one over a newer, never one not claimed', () => {
        store.claimDelivery(runId, alice);
        store.claimDelivery(runId, alice);
        store.settleDelivery(runId, 2);
        store.settleDelivery(runId, 1);
        store.settleDelivery(runId, 3);
        expect(store.deliveryCount(runId)).toMatchObject({ claimed: 2, settled: 2 });
        // a claim after it is ahead of the settled count until its worker settles it
        store.claimDelivery(runId, bob);
        expect(store.deliveryCount(runId)).toMatchObject({ claimed: 3, settled: 2, owner: bob });
      });

      it('undoes a claim made in a transaction that rolled back', () => {
        expect(() =>
          store.transaction(() => {
            store.claimDelivery(runId, alice);
            throw new Error('the worker gave up before it started');
          }),
        ).toThrow('gave up');
        expect(store.deliveryCount(runId).claimed).toBe(0);
      });

      it('keeps the count when the run is rewound to its start or to a barrier', () => {
        store.claimDelivery(runId, alice);
        store.settleDelivery(runId, 1);
        store.claimDelivery(runId, alice);
        store.rewindToStart(runId);
        store.truncateAfter(runId, { phaseIndex: 0, episode: 0 });
        expect(store.deliveryCount(runId)).toMatchObject({ claimed: 2, settled: 1 });
      });

      it('refuses an unknown run, a settle of delivery 0, and every claim from a read-only handle', () => {
        expect(() => store.claimDelivery('nope', alice)).toThrow(RunNotFoundError);
        expect(() => store.settleDelivery('nope', 1)).toThrow(RunNotFoundError);
        expect(() => store.deliveryCount('nope')).toThrow(RunNotFoundError);
        expect(() => store.settleDelivery(runId, 0)).toThrow(InvalidRecordError);
        const reader = handle({ readonly: true });
        expect(() => reader.claimDelivery(runId, alice)).toThrow(StoreReadOnlyError);
        expect(() => reader.settleDelivery(runId, 1)).toThrow(StoreReadOnlyError);
        expect(store.deliveryCount(runId).claimed).toBe(0);
      });
    });

    describe('truncation and rewind', () => {
      it('makes an interrupted and resumed run record exactly what an uninterrupted one does', () => {
        const whole = fillSampleRun(store, 'whole');
        const resumed = 'resumed';
        store.createRun({
          runId: resumed,
          uid: 'grid-demo',
          seed: 42,
          runFile: sampleRunFile,
          runFilePath: 'run.yaml',
        });
        store.startPhase({ runId: resumed, phaseIndex: 0, name: 'train', mode: 'train' });
        store.recordMetaDecision(sampleMetaDecision(resumed, 0));
        store.recordEpisode(sampleEpisode(resumed, 0, 1));
        store.recordEpisode(sampleEpisode(resumed, 0, 2));
        store.recordEpisode(sampleEpisode(resumed, 0, 3, { evaluation: true, episodeReturn: 2 }));
        store.recordCheckpoint(sampleCheckpoint(resumed, 0, 0, 3, 0.5));
        store.saveSnapshot({
          runId: resumed,
          phaseIndex: 0,
          episode: 3,
          state: { episode: 3, rng: [1, 2, 3] },
        });
        store.recordEpisode(sampleEpisode(resumed, 0, 4, { episodeReturn: 99 }));
        store.recordCheckpoint(sampleCheckpoint(resumed, 0, 1, 4, 0.1));
        store.startPhase({ runId: resumed, phaseIndex: 1, name: 'test', mode: 'test' });
        store.finishPhase(resumed, 0, {
          status: 'cancelled',
          terminationReason: 'cancelled',
          episodes: 4,
        });
        store.finishRun(resumed, { status: 'cancelled', error: 'interrupted' });

        const snapshot = rewindToLatestSnapshot(store, resumed);
        expect(snapshot?.episode).toBe(3);
        expect(store.getRun(resumed)).toMatchObject({
          status: 'running',
          endedAt: null,
          error: null,
          summary: null,
        });
        expect(store.phases(resumed)).toMatchObject([
          { status: 'running', episodes: 0, terminationReason: null },
        ]);

        store.recordEpisode(sampleEpisode(resumed, 0, 4));
        store.recordEpisode(sampleEpisode(resumed, 0, 5));
        store.recordEpisode(sampleEpisode(resumed, 0, 6, { evaluation: true, episodeReturn: 2 }));
        store.recordCheckpoint(sampleCheckpoint(resumed, 0, 1, 6, 1.5));
        store.saveSnapshot({
          runId: resumed,
          phaseIndex: 0,
          episode: 6,
          state: { episode: 6, rng: [1, 2, 3] },
        });
        store.finishPhase(resumed, 0, {
          status: 'done',
          terminationReason: 'success',
          episodes: 6,
        });
        store.finishRun(resumed, { status: 'succeeded', summary: { episodes: 6 } });
        expect(everything(store, resumed)).toEqual(everything(store, whole));
      });

      it('deletes later phases with their records and keeps earlier ones', () => {
        store.recordEpisode(sampleEpisode(runId, 0, 1));
        store.finishPhase(runId, 0, { status: 'done', terminationReason: 'success', episodes: 1 });
        store.startPhase({ runId, phaseIndex: 1, name: 'test', mode: 'test' });
        store.recordEpisode(sampleEpisode(runId, 1, 1, { mode: 'test' }));
        store.saveSnapshot({ runId, phaseIndex: 1, episode: 1, state: {} });
        store.truncateAfter(runId, { phaseIndex: 0, episode: 1 });
        expect(store.phases(runId).map((phase) => [phase.phaseIndex, phase.status])).toEqual([
          [0, 'running'],
        ]);
        expect(store.episodes(runId)).toEqual([sampleEpisode(runId, 0, 1)]);
        expect(store.snapshotCount(runId)).toBe(0);
      });

      it('keeps an earlier phase as it ended, reopens the resumed one and keeps its records up to the point', () => {
        store.recordEpisode(sampleEpisode(runId, 0, 1));
        store.finishPhase(runId, 0, {
          status: 'done',
          terminationReason: 'max_episodes',
          episodes: 1,
        });
        store.startPhase({ runId, phaseIndex: 1, name: 'test', mode: 'test' });
        store.recordEpisode(sampleEpisode(runId, 1, 1));
        store.recordEpisode(sampleEpisode(runId, 1, 2));
        store.saveSnapshot({ runId, phaseIndex: 1, episode: 1, state: null });
        store.saveSnapshot({ runId, phaseIndex: 1, episode: 2, state: null });
        store.startPhase({ runId, phaseIndex: 2, name: 'again', mode: 'train' });
        store.recordMetaDecision(sampleMetaDecision(runId, 2));
        store.truncateAfter(runId, { phaseIndex: 1, episode: 1 });
        expect(store.phases(runId).map((phase) => [phase.phaseIndex, phase.status])).toEqual([
          [0, 'done'],
          [1, 'running'],
        ]);
        expect(store.episodes(runId).map((e) => [e.phaseIndex, e.episode])).toEqual([
          [0, 1],
          [1, 1],
        ]);
        expect(store.metaDecisions(runId)).toEqual([]);
        expect(store.latestSnapshot(runId)).toMatchObject({ phaseIndex: 1, episode: 1 });
      });

      it('refuses a resume point after an episode of a phase never started, and changes nothing', () => {
        store.recordEpisode(sampleEpisode(runId, 0, 1));
        expect(() => store.truncateAfter(runId, { phaseIndex: 1, episode: 2 })).toThrow(
          new PhaseNotFoundError(runId, 1),
        );
        expect(store.episodes(runId)).toHaveLength(1);
      });

      it('takes episode 0 of a phase never started as the moment before it starts', () => {
        store.recordEpisode(sampleEpisode(runId, 0, 1));
        store.finishPhase(runId, 0, { status: 'done', terminationReason: 'success', episodes: 1 });
        store.finishRun(runId, { status: 'cancelled' });
        store.truncateAfter(runId, { phaseIndex: 1, episode: 0 });
        expect(store.phases(runId)).toMatchObject([{ phaseIndex: 0, status: 'done', episodes: 1 }]);
        expect(store.getRun(runId).status).toBe('running');

        // a run killed before its first phase: episode 0 of phase 0 reopens it, with nothing to delete
        store.createRun({ runId: 'fresh', uid: 'u', seed: 1, runFile: '', runFilePath: 'f.yaml' });
        store.finishRun('fresh', { status: 'failed', error: 'killed before its first phase' });
        store.truncateAfter('fresh', { phaseIndex: 0, episode: 0 });
        expect(store.getRun('fresh')).toMatchObject({ status: 'running', error: null });
      });

      it('records a submitted run as queued, and rewinding it to its start turns it running', () => {
        const queued = store.createRun({
          runId: 'q1',
          uid: 'grid',
          seed: 1,
          runFile: sampleRunFile,
          runFilePath: '/runs/grid.yaml',
          status: 'queued',
        });
        expect(queued.status).toBe('queued');
        expect(
          handle()
            .listRuns()
            .find((run) => run.runId === 'q1')?.status,
        ).toBe('queued');
        store.rewindToStart('q1');
        expect(store.getRun('q1').status).toBe('running');
      });

      it('rewinds a run to the moment it was created, keeping its lease and resumes', () => {
        const lease = store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
        store.recordResume({
          runId,
          owner: alice.id,
          phaseIndex: 0,
          episode: 0,
          forced: false,
          changedModules: [],
        });
        store.recordEpisode(sampleEpisode(runId, 0, 1));
        store.saveSnapshot({ runId, phaseIndex: 0, episode: 1, state: {} });
        store.finishRun(runId, { status: 'failed', error: 'x' });
        store.rewindToStart(runId);
        expect(store.phases(runId)).toEqual([]);
        expect(store.episodes(runId)).toEqual([]);
        expect(store.latestSnapshot(runId)).toBeNull();
        expect(store.getRun(runId)).toMatchObject({ status: 'running', error: null });
        expect(store.resumes(runId)).toHaveLength(1);
        store.requireLease(lease);
      });
    });
  });
}
