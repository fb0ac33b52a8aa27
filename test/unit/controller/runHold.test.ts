import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/actors/experiment/runEvents.js';
import { runExperiment } from '../../../src/actors/experiment/runExperiment.js';
import { builtinComponents } from '../../../src/builtins/index.js';
import { parseRunFile } from '../../../src/config/runFile.js';
import { createMemoryStore } from '../../../src/ports/store/memory/memoryStore.js';
import { runRecords } from '../../support/records.js';

const runFile = path.resolve('examples/cap-free-plateau.yaml');
const text = readFileSync(runFile, 'utf8');
const spec = parseRunFile(text, { sourcePath: runFile });

describe('a run that holds at a checkpoint count (a sweep trial at its rung)', () => {
  it('is handed back at the barrier of its third checkpoint and, resumed, writes the records of a run that never held', async () => {
    const straight = createMemoryStore();
    const uninterrupted = await runExperiment(spec, {
      store: straight,
      builtins: builtinComponents,
      runFileText: text,
    });
    expect(uninterrupted.status).toBe('succeeded');

    const store = createMemoryStore();
    const events: RunEvent[] = [];
    const held = await runExperiment(spec, {
      store,
      builtins: builtinComponents,
      runFileText: text,
      holdAt: 3,
      onEvent: (event) => events.push(event),
    });
    const runId = held.runId;
    expect(events.filter((event) => event.type === 'run.held')).toEqual([
      { type: 'run.held', runId, checkpoints: 3 },
    ]);
    // held, not ended: running without a lease, its third checkpoint stored and nothing after its barrier
    const record = store.getRun(runId);
    expect(record.status).toBe('running');
    expect(record.lease).toBeNull();
    expect(store.checkpoints(runId)).toHaveLength(3);
    const lastCheckpoint = store.checkpoints(runId)[2]?.afterEpisode ?? -1;
    expect(store.latestSnapshot(runId)?.episode).toBeGreaterThanOrEqual(lastCheckpoint);

    // resumed at its hold (as after a kill at the held barrier): held there again, not one episode on
    const episodesAtHold = store.episodes(runId).length;
    await runExperiment(spec, {
      store,
      builtins: builtinComponents,
      resumeRunId: runId,
      holdAt: 3,
    });
    expect(store.episodes(runId)).toHaveLength(episodesAtHold);
    expect(store.getRun(runId).status).toBe('running');

    // held again further on, then to the end
    await runExperiment(spec, {
      store,
      builtins: builtinComponents,
      resumeRunId: runId,
      holdAt: 5,
    });
    expect(store.checkpoints(runId)).toHaveLength(5);
    const finished = await runExperiment(spec, {
      store,
      builtins: builtinComponents,
      resumeRunId: runId,
      holdAt: null,
    });
    expect(finished.status).toBe('succeeded');
    expect(runRecords(store, runId)).toEqual(runRecords(straight, uninterrupted.runId));
  });

  it('holds where the store says its trial holds when not told', async () => {
    const store = createMemoryStore();
    const created = store.createRun({
      uid: spec.uid,
      seed: spec.seed,
      runFile: text,
      runFilePath: runFile,
      status: 'queued',
    });
    store.createSweep({
      uid: 's',
      sweepFile: '',
      sweepFilePath: 's.yaml',
      state: {},
      sweepId: 's',
    });
    store.recordTrial({
      sweepId: 's',
      trialIndex: 0,
      runId: created.runId,
      parameters: [],
      holdAt: 2,
    });
    await runExperiment(spec, { store, builtins: builtinComponents, resumeRunId: created.runId });
    expect(store.checkpoints(created.runId)).toHaveLength(2);
    expect(store.getRun(created.runId).status).toBe('running');
  });
});
