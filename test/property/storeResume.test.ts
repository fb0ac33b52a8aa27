import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { createMemoryStore } from '../../src/ports/store/memory/memoryStore.js';
import type { RunStore } from '../../src/ports/store/store.js';
import { createStoreWriter, type StoreWriteCommand } from '../../src/ports/store/storeWriter.js';
import {
  sampleCheckpoint,
  sampleClock,
  sampleEpisode,
  sampleMetaDecision,
  sampleRunFile,
} from '../unit/store/sampleRun.js';

interface PhasePlan {
  trainingEpisodes: number;
  evaluateEvery: number;
  meta: boolean;
  /** With `meta`, a second start request (a second meta decision) after this many training episodes. */
  secondStartAfter: number;
}

const runId = 'run';

/** The writes of one run, in order, with a barrier snapshot after every training episode. */
function writesOf(phases: readonly PhasePlan[], returnShift = 0): StoreWriteCommand[] {
  const writes: StoreWriteCommand[] = [];
  phases.forEach((plan, phaseIndex) => {
    writes.push({
      kind: 'startPhase',
      phase: { runId, phaseIndex, name: `p${phaseIndex}`, mode: 'train' },
    });
    if (plan.meta)
      writes.push({ kind: 'metaDecision', record: sampleMetaDecision(runId, phaseIndex) });
    let episode = 0;
    let checkpointIndex = 0;
    for (let training = 1; training <= plan.trainingEpisodes; training++) {
      if (plan.meta && training === plan.secondStartAfter + 1 && training > 1) {
        const second = {
          ...sampleMetaDecision(runId, phaseIndex),
          startRequest: 2,
          firstEpisode: episode + 1,
        };
        writes.push({ kind: 'metaDecision', record: second });
      }
      episode += 1;
      const record = sampleEpisode(runId, phaseIndex, episode);
      writes.push({
        kind: 'episode',
        record: { ...record, episodeReturn: record.episodeReturn + returnShift },
      });
      if (training % plan.evaluateEvery === 0) {
        episode += 1;
        writes.push({
          kind: 'episode',
          record: sampleEpisode(runId, phaseIndex, episode, { evaluation: true }),
        });
        const checkpoint = sampleCheckpoint(
          runId,
          phaseIndex,
          checkpointIndex,
          episode,
          training + returnShift,
        );
        writes.push({ kind: 'checkpoint', record: checkpoint });
        checkpointIndex += 1;
      }
      writes.push({
        kind: 'snapshot',
        snapshot: { runId, phaseIndex, episode, state: { training, episode } },
      });
    }
    const outcome = {
      status: 'done' as const,
      terminationReason: 'max_episodes',
      episodes: episode,
    };
    writes.push({ kind: 'finishPhase', runId, phaseIndex, outcome });
  });
  writes.push({
    kind: 'finishRun',
    runId,
    outcome: { status: 'succeeded', summary: { phases: phases.length } },
  });
  return writes;
}

function newRunStore(): RunStore {
  const store = createMemoryStore({ clock: sampleClock() });
  store.createRun({ runId, uid: 'u', seed: 1, runFile: sampleRunFile, runFilePath: 'run.yaml' });
  return store;
}

function everything(store: RunStore) {
  return {
    run: store.getRun(runId),
    phases: store.phases(runId),
    episodes: store.episodes(runId),
    checkpoints: store.checkpoints(runId),
    metaDecisions: store.metaDecisions(runId),
    latestSnapshot: store.latestSnapshot(runId),
    snapshots: store.snapshotCount(runId),
  };
}

const phasePlan = fc.record({
  trainingEpisodes: fc.integer({ min: 1, max: 6 }),
  evaluateEvery: fc.integer({ min: 1, max: 3 }),
  meta: fc.boolean(),
  secondStartAfter: fc.integer({ min: 1, max: 5 }),
});

describe('store resume (property)', () => {
  test.prop(
    [
      fc.array(phasePlan, { minLength: 1, maxLength: 3 }),
      fc.nat(),
      fc.nat(),
      fc.integer({ min: 1, max: 10 }),
    ],
    { numRuns: 150 },
  )(
    'a run killed after any barrier and truncated to its latest snapshot holds what it held at that barrier, and once resumed records exactly what an uninterrupted run records',
    (phases, cutChoice, extraChoice, maxBatch) => {
      const writes = writesOf(phases);
      const whole = newRunStore();
      const wholeWriter = createStoreWriter(whole, { maxBatch, maxDelayMs: 60_000 });
      for (const write of writes) wholeWriter.write(write);
      wholeWriter.close();

      const barriers = writes.flatMap((write, index) => (write.kind === 'snapshot' ? [index] : []));
      const cut = barriers[cutChoice % barriers.length]!;
      const nextBarrier = barriers.find((index) => index > cut) ?? writes.length;
      // Before the kill, some writes after the barrier reached the store, with values the resumed run will not repeat.
      const strayCount = extraChoice % (nextBarrier - cut);
      const stray = writesOf(phases, 100).slice(cut + 1, cut + 1 + strayCount);

      const resumed = newRunStore();
      const before = createStoreWriter(resumed, { maxBatch, maxDelayMs: 60_000 });
      for (const write of [...writes.slice(0, cut + 1), ...stray]) before.write(write);
      before.close();
      resumed.finishRun(runId, { status: 'failed', error: 'killed' });

      const snapshot = resumed.latestSnapshot(runId)!;
      resumed.truncateAfter(runId, { phaseIndex: snapshot.phaseIndex, episode: snapshot.episode });
      const atBarrier = newRunStore();
      const prefix = createStoreWriter(atBarrier, { maxBatch, maxDelayMs: 60_000 });
      for (const write of writes.slice(0, cut + 1)) prefix.write(write);
      prefix.close();
      expect(everything(resumed)).toEqual(everything(atBarrier));
      atBarrier.close();

      const after = createStoreWriter(resumed, { maxBatch, maxDelayMs: 60_000 });
      for (const write of writes.slice(cut + 1)) after.write(write);
      after.close();

      expect(everything(resumed)).toEqual(everything(whole));
      whole.close();
      resumed.close();
    },
  );
});
