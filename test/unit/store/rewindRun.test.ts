import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../src/ports/store/memory/memoryStore.js';
import { rewindToLatestSnapshot } from '../../../src/ports/store/rewindRun.js';
import type { RunStore } from '../../../src/ports/store/store.js';
import { NothingToResumeError, RunNotFoundError } from '../../../src/ports/store/storeErrors.js';
import { fillSampleRun, sampleClock, sampleEpisode, sampleRunFile } from './sampleRun.js';

const runId = 'r1';
let store: RunStore;

beforeEach(() => {
  store = createMemoryStore({ clock: sampleClock() });
  store.createRun({ runId, uid: 'u', seed: 1, runFile: sampleRunFile, runFilePath: 'run.yaml' });
  store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
});
afterEach(() => store.close());

describe('rewinding a run for --resume', () => {
  it('deletes what was written after the latest snapshot and returns that snapshot', () => {
    store.recordEpisode(sampleEpisode(runId, 0, 1));
    store.saveSnapshot({ runId, phaseIndex: 0, episode: 1, state: { next: 2 } });
    store.recordEpisode(sampleEpisode(runId, 0, 2));
    store.finishRun(runId, { status: 'cancelled', error: 'Ctrl-C' });

    const snapshot = rewindToLatestSnapshot(store, runId);
    expect(snapshot).toMatchObject({ phaseIndex: 0, episode: 1, state: { next: 2 } });
    expect(store.episodes(runId).map((record) => record.episode)).toEqual([1]);
    expect(store.getRun(runId)).toMatchObject({ status: 'running', error: null });
  });

  it('refuses a run that already succeeded', () => {
    const finished = fillSampleRun(store, 'done');
    expect(() => rewindToLatestSnapshot(store, finished)).toThrow(NothingToResumeError);
    expect(() => rewindToLatestSnapshot(store, finished)).toThrow(
      "run 'done' cannot be resumed: it already succeeded",
    );
  });

  it('rewinds a run with no snapshot to its start, so it starts again under its own id', () => {
    store.finishRun(runId, { status: 'failed', error: 'boom' });
    expect(rewindToLatestSnapshot(store, runId)).toBeNull();
    expect(store.phases(runId)).toEqual([]);
    expect(store.episodes(runId)).toEqual([]);
    expect(store.getRun(runId)).toMatchObject({ status: 'running', error: null });
  });

  it('names an unknown run', () => {
    expect(() => rewindToLatestSnapshot(store, 'ghost')).toThrow(RunNotFoundError);
  });
});
