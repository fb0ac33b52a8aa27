import type {
  CheckpointDetails as CheckpointReport,
  RunDetails as RunReport,
} from '../../src/report/runDetails.js';

/** One accepted checkpoint of phase 0, as `arena show` reports it. */
export function checkpointReport(
  index: number,
  metrics: Record<string, number>,
  agentName = 'operator',
): CheckpointReport {
  return {
    phaseIndex: 0,
    checkpointIndex: index,
    afterEpisode: (index + 1) * 4,
    afterTrainingEpisodes: (index + 1) * 3,
    status: 'accepted',
    control: 'CONTINUE',
    reason: null,
    metrics: [{ agentName, metrics }],
    outcomes: [],
    error: null,
  };
}

/** A finished run `r` with these checkpoints and nothing else, as `arena show` reports it. */
export function runReport(checkpoints: CheckpointReport[]): RunReport {
  return {
    run: {
      runId: 'r',
      uid: 'u',
      seed: 1,
      status: 'succeeded',
      runFilePath: 'r.yaml',
      startedAt: '2026-12-01T08:00:00.000Z',
      endedAt: '2026-12-01T08:00:01.000Z',
      error: null,
      summary: null,
      runFileSha256: null,
      modules: null,
      lease: null,
    },
    activity: { status: 'succeeded', leaseLapsesInSeconds: null, interruption: null },
    phases: [],
    checkpoints,
    metaDecisions: [],
    snapshots: 0,
    resumes: [],
    remoteComponents: [],
  };
}
