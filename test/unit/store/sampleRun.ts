import { fixedClock } from '../../../src/ports/runtime/clock.js';
import type {
  CheckpointRecord,
  EpisodeRecord,
  MetaDecisionRecord,
  RunStore,
} from '../../../src/ports/store/store.js';

/** The fixed start of every sample run. */
export const sampleStart = new Date('2026-11-29T20:07:02.000Z');

/** A clock for stores in tests, frozen at `sampleStart`. */
export const sampleClock = () => fixedClock(sampleStart);

export const sampleRunFile = 'uid: grid-demo\nseed: 42\nschedule: []\n';

export function sampleEpisode(
  runId: string,
  phaseIndex: number,
  episode: number,
  overrides: Partial<EpisodeRecord> = {},
): EpisodeRecord {
  return {
    runId,
    phaseIndex,
    episode,
    mode: 'train',
    evaluation: false,
    episodeReturn: episode * 1.5,
    steps: 10 + episode,
    returnsByAgent: { operator: episode * 1.5 },
    doneReason: 'environment_done',
    ...overrides,
  };
}

export function sampleCheckpoint(
  runId: string,
  phaseIndex: number,
  checkpointIndex: number,
  afterEpisode: number,
  reward: number,
): CheckpointRecord {
  return {
    runId,
    phaseIndex,
    checkpointIndex,
    afterEpisode,
    outcomes: [{ agentName: 'operator', evaluationId: `e${checkpointIndex}`, metrics: { reward } }],
    status: 'accepted',
    decision: { control: 'CONTINUE', reason: null, report: { successStreak: checkpointIndex } },
    error: null,
  };
}

export function sampleMetaDecision(runId: string, phaseIndex: number): MetaDecisionRecord {
  return {
    runId,
    phaseIndex,
    startRequest: 1,
    firstEpisode: 1,
    environmentUid: 'grid',
    agentName: 'planner',
    record: {
      baseline: { 'grid.definition.load': 0.427, 'grid.definition.pv': 0.913 },
      candidate: { 'grid.definition.load': 0.5, 'grid.definition.pv': 1 },
    },
  };
}

/** Create run `runId` in `store` from the sample run file (seed 42), with nothing recorded yet. */
export function createSampleRun(store: RunStore, runId: string): void {
  store.createRun({
    runId,
    uid: 'grid-demo',
    seed: 42,
    runFile: sampleRunFile,
    runFilePath: 'run.yaml',
  });
}

/**
 * Fill `store` with one finished run: a training phase of 4 training episodes
 * with evaluations after episodes 2 and 4 (6 episodes in all, 2 checkpoints,
 * one meta decision, a snapshot at each barrier), stopped by `success`.
 */
export function fillSampleRun(store: RunStore, runId = 'grid-demo-20261129T200702-3fa2'): string {
  createSampleRun(store, runId);
  store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
  store.recordMetaDecision(sampleMetaDecision(runId, 0));
  let episode = 0;
  for (const checkpointIndex of [0, 1]) {
    for (let training = 0; training < 2; training++) {
      episode += 1;
      store.recordEpisode(sampleEpisode(runId, 0, episode));
    }
    episode += 1;
    store.recordEpisode(
      sampleEpisode(runId, 0, episode, { evaluation: true, episodeReturn: 2, mode: 'train' }),
    );
    store.recordCheckpoint(
      sampleCheckpoint(runId, 0, checkpointIndex, episode, 0.5 + checkpointIndex),
    );
    store.saveSnapshot({ runId, phaseIndex: 0, episode, state: { episode, rng: [1, 2, 3] } });
  }
  store.finishPhase(runId, 0, { status: 'done', terminationReason: 'success', episodes: episode });
  store.finishRun(runId, { status: 'succeeded', summary: { episodes: episode } });
  return runId;
}
