import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../src/ports/memoryStore.js';
import { createRunIdGenerator } from '../../../src/ports/runId.js';
import type { RunStore } from '../../../src/ports/store.js';
import {
  DuplicateRecordError,
  InvalidRecordError,
  PhaseNotFoundError,
  RunNotFoundError,
} from '../../../src/ports/storeErrors.js';
import {
  createSampleRun,
  fillSampleRun,
  sampleCheckpoint,
  sampleClock,
  sampleEpisode,
  sampleMetaDecision,
  sampleRunFile,
} from './sampleRun.js';

let store: RunStore;
const runId = 'r1';

beforeEach(() => {
  store = createMemoryStore({ clock: sampleClock() });
  createSampleRun(store, runId);
  store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
});
afterEach(() => store.close());

describe('SQLite run store: round trips', () => {
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

  it('names a run from its uid, the clock and a random suffix when no id is given', () => {
    const named = createMemoryStore({
      clock: sampleClock(),
      newRunId: createRunIdGenerator({ randomHex: () => '3fa2' }),
    });
    const run = named.createRun({ uid: 'grid demo', seed: 1, runFile: '', runFilePath: 'a.yaml' });
    expect(run.runId).toBe('grid-demo-20261129T200702-3fa2');
    named.close();
  });

  it('starts a phase as running with 0 episodes and finishes it', () => {
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
    const finished = store.finishPhase(runId, 0, {
      status: 'done',
      terminationReason: 'plateau',
      episodes: 7,
    });
    expect(finished).toMatchObject({ status: 'done', terminationReason: 'plateau', episodes: 7 });
    expect(finished.endedAt).toBe('2026-11-29T20:07:02.000Z');
  });

  it('reads back episodes as written, by phase and in episode order', () => {
    store.startPhase({ runId, phaseIndex: 1, name: 'test', mode: 'test' });
    const second = sampleEpisode(runId, 0, 2, { evaluation: true, doneReason: 'max_steps' });
    const first = sampleEpisode(runId, 0, 1, { returnsByAgent: { b: -1, a: 2.25 } });
    const testing = sampleEpisode(runId, 1, 1, { mode: 'test', episodeReturn: -0.125 });
    store.recordEpisode(second);
    store.recordEpisode(testing);
    store.recordEpisode(first);
    expect(store.episodes(runId)).toEqual([first, second, testing]);
    expect(store.episodes(runId, 1)).toEqual([testing]);
  });

  it('reads back checkpoints, meta decisions and snapshots as written', () => {
    const checkpoint = sampleCheckpoint(runId, 0, 0, 2, 0.75);
    const rejected = {
      ...sampleCheckpoint(runId, 0, 1, 4, 0.8),
      status: 'rejected' as const,
      error: { code: 'OUT_OF_ORDER', message: 'evaluation episode 1 after 2' },
    };
    store.recordCheckpoint(rejected);
    store.recordCheckpoint(checkpoint);
    store.recordMetaDecision(sampleMetaDecision(runId, 0));
    store.saveSnapshot({ runId, phaseIndex: 0, episode: 2, state: { counters: { episode: 2 } } });
    expect(store.checkpoints(runId)).toEqual([checkpoint, rejected]);
    expect(store.checkpoints(runId, 1)).toEqual([]);
    expect(store.metaDecisions(runId)).toEqual([sampleMetaDecision(runId, 0)]);
    expect(store.latestSnapshot(runId)).toEqual({
      runId,
      phaseIndex: 0,
      episode: 2,
      createdAt: '2026-11-29T20:07:02.000Z',
      state: { counters: { episode: 2 } },
    });
  });

  it('keeps non-finite metric values through the JSON round trip', () => {
    const outcomes = [{ agentName: 'a', metrics: { loss: Number.NaN, best: -Infinity } }];
    store.recordCheckpoint({ ...sampleCheckpoint(runId, 0, 0, 1, 0), outcomes });
    expect(store.checkpoints(runId)[0]?.outcomes).toEqual(outcomes);
  });

  it('returns the newest snapshot, and a second save at one barrier replaces the first', () => {
    expect(store.latestSnapshot(runId)).toBeNull();
    store.startPhase({ runId, phaseIndex: 1, name: 'test', mode: 'test' });
    store.saveSnapshot({ runId, phaseIndex: 0, episode: 9, state: 'phase 0' });
    store.saveSnapshot({ runId, phaseIndex: 1, episode: 2, state: 'first' });
    store.saveSnapshot({ runId, phaseIndex: 1, episode: 2, state: 'second' });
    expect(store.latestSnapshot(runId)).toMatchObject({
      phaseIndex: 1,
      episode: 2,
      state: 'second',
    });
    expect(store.snapshotCount(runId)).toBe(2);
  });

  it('lists runs newest first, up to the limit', () => {
    store.createRun({
      uid: 'b',
      seed: 1,
      runFile: '',
      runFilePath: 'b.yaml',
      runId: 'b',
      startedAt: '2026-11-30T00:00:00.000Z',
    });
    store.createRun({
      uid: 'a',
      seed: 1,
      runFile: '',
      runFilePath: 'a.yaml',
      runId: 'a',
      startedAt: '2026-11-01T00:00:00.000Z',
    });
    expect(store.listRuns().map((run) => run.runId)).toEqual(['b', runId, 'a']);
    expect(store.listRuns({ limit: 1 }).map((run) => run.runId)).toEqual(['b']);
  });

  it('summarises episode count and mean return per phase and kind', () => {
    const filled = fillSampleRun(store, 'sample');
    expect(store.episodeSummary(filled)).toEqual([
      { phaseIndex: 0, evaluation: false, count: 4, meanReturn: (1.5 + 3 + 6 + 7.5) / 4 },
      { phaseIndex: 0, evaluation: true, count: 2, meanReturn: 2 },
    ]);
  });
});

describe('SQLite run store: errors', () => {
  it('throws RunNotFoundError naming an unknown run id, on reads and writes', () => {
    const reads: Array<() => unknown> = [
      () => store.getRun('ghost'),
      () => store.phases('ghost'),
      () => store.episodes('ghost'),
      () => store.checkpoints('ghost'),
      () => store.metaDecisions('ghost'),
      () => store.latestSnapshot('ghost'),
      () => store.snapshotCount('ghost'),
      () => store.episodeSummary('ghost'),
      () => store.finishRun('ghost', { status: 'cancelled' }),
      () => store.startPhase({ runId: 'ghost', phaseIndex: 0, name: 'x', mode: 'train' }),
      () => store.recordEpisode(sampleEpisode('ghost', 0, 1)),
      () => store.truncateAfter('ghost', { phaseIndex: 0, episode: 1 }),
    ];
    for (const read of reads) {
      expect(read).toThrow(RunNotFoundError);
      expect(read).toThrow("no run 'ghost' in the store");
    }
  });

  it('throws PhaseNotFoundError for a record of a phase never started', () => {
    expect(() => store.recordEpisode(sampleEpisode(runId, 3, 1))).toThrow(PhaseNotFoundError);
    expect(() =>
      store.finishPhase(runId, 3, { status: 'done', terminationReason: null, episodes: 0 }),
    ).toThrow("run 'r1' has no phase 3");
  });

  it('refuses to store the same episode twice', () => {
    store.recordEpisode(sampleEpisode(runId, 0, 1));
    expect(() => store.recordEpisode(sampleEpisode(runId, 0, 1))).toThrow(DuplicateRecordError);
    expect(() => store.recordEpisode(sampleEpisode(runId, 0, 1))).toThrow(
      "episode 1 of phase 0 of run 'r1' is already stored",
    );
  });

  it('rejects a non-finite episode return and a 0th episode, naming the field', () => {
    const nan = sampleEpisode(runId, 0, 1, { episodeReturn: Number.NaN });
    expect(() => store.recordEpisode(nan)).toThrow(InvalidRecordError);
    expect(() => store.recordEpisode(nan)).toThrow(
      'episodeReturn must be a finite number, got NaN',
    );
    expect(() => store.recordEpisode(sampleEpisode(runId, 0, 0))).toThrow(
      'episode must be an integer >= 1, got 0',
    );
  });
});

describe('SQLite run store: truncateAfter', () => {
  it('makes an interrupted and resumed run record exactly what an uninterrupted one does', () => {
    const uninterrupted = fillSampleRun(store, 'whole');

    // The interrupted run: the same writes up to its snapshot after episode 3, then a few more, then Ctrl-C.
    const resumed = 'resumed';
    createSampleRun(store, resumed);
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
    store.recordEpisode(sampleEpisode(resumed, 0, 5, { episodeReturn: 98 }));
    store.recordCheckpoint(sampleCheckpoint(resumed, 0, 1, 5, 0.1));
    store.startPhase({ runId: resumed, phaseIndex: 1, name: 'test', mode: 'test' });
    store.finishPhase(resumed, 0, {
      status: 'cancelled',
      terminationReason: 'cancelled',
      episodes: 5,
    });
    store.finishRun(resumed, { status: 'cancelled', error: 'interrupted' });

    const snapshot = store.latestSnapshot(resumed)!;
    store.truncateAfter(resumed, { phaseIndex: snapshot.phaseIndex, episode: snapshot.episode });
    expect(store.getRun(resumed)).toMatchObject({ status: 'running', endedAt: null, error: null });
    expect(store.phases(resumed)).toMatchObject([
      { status: 'running', episodes: 0, terminationReason: null },
    ]);

    // The resumed run carries on from episode 4 as the uninterrupted one did.
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
    store.finishPhase(resumed, 0, { status: 'done', terminationReason: 'success', episodes: 6 });
    store.finishRun(resumed, { status: 'succeeded', summary: { episodes: 6 } });

    const everything = (id: string) => {
      const withoutId = <T extends { runId: string }>(records: T[]) =>
        records.map(({ runId: _runId, ...rest }) => rest);
      return {
        run: (({ runId: _runId, ...rest }) => rest)(store.getRun(id)),
        phases: withoutId(store.phases(id)),
        episodes: withoutId(store.episodes(id)),
        checkpoints: withoutId(store.checkpoints(id)),
        metaDecisions: withoutId(store.metaDecisions(id)),
        latestSnapshot: (({ runId: _runId, ...rest }) => rest)(store.latestSnapshot(id)!),
        snapshots: store.snapshotCount(id),
      };
    };
    expect(everything(resumed)).toEqual(everything(uninterrupted));
  });

  it('deletes later phases with their records and keeps earlier ones', () => {
    store.recordEpisode(sampleEpisode(runId, 0, 1));
    store.finishPhase(runId, 0, { status: 'done', terminationReason: 'max_episodes', episodes: 1 });
    store.startPhase({ runId, phaseIndex: 1, name: 'test', mode: 'test' });
    store.recordEpisode(sampleEpisode(runId, 1, 1));
    store.recordEpisode(sampleEpisode(runId, 1, 2));
    store.saveSnapshot({ runId, phaseIndex: 1, episode: 1, state: null });
    store.saveSnapshot({ runId, phaseIndex: 1, episode: 2, state: null });
    store.startPhase({ runId, phaseIndex: 2, name: 'again', mode: 'train' });
    store.recordMetaDecision({ ...sampleMetaDecision(runId, 2) });

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

  it('refuses a resume point after an episode of a phase the run never started', () => {
    expect(() => store.truncateAfter(runId, { phaseIndex: 4, episode: 2 })).toThrow(
      "run 'r1' has no phase 4",
    );
  });

  it('takes episode 0 of a phase never started as the moment before it starts', () => {
    store.recordEpisode(sampleEpisode(runId, 0, 1));
    store.finishPhase(runId, 0, { status: 'done', terminationReason: 'max_episodes', episodes: 1 });
    store.finishRun(runId, { status: 'cancelled' });
    store.truncateAfter(runId, { phaseIndex: 1, episode: 0 });
    expect(store.phases(runId)).toMatchObject([{ phaseIndex: 0, status: 'done', episodes: 1 }]);
    expect(store.getRun(runId).status).toBe('running');

    const fresh = 'fresh';
    store.createRun({ runId: fresh, uid: 'u', seed: 1, runFile: '', runFilePath: 'f.yaml' });
    store.finishRun(fresh, { status: 'failed', error: 'killed before its first phase' });
    store.truncateAfter(fresh, { phaseIndex: 0, episode: 0 });
    expect(store.getRun(fresh)).toMatchObject({ status: 'running', error: null });
  });
});

describe('SQLite run store: file', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'arena-store-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('keeps what it stored when the file is opened again', async () => {
    const { openSqliteStore } = await import('../../../src/ports/sqlite/sqliteStore.js');
    const file = path.join(folder, 'arena.db');
    const first = openSqliteStore(file, { clock: sampleClock() });
    const id = fillSampleRun(first);
    first.close();
    const again = openSqliteStore(file);
    expect(again.getRun(id).status).toBe('succeeded');
    expect(again.episodes(id)).toHaveLength(6);
    again.close();
  });
});
