import { describe, expect, it } from 'vitest';
import { parseTerminationConfig } from '../../../src/domain/termination/config.js';
import type { EpisodeRecord } from '../../../src/ports/store/store.js';
import { terminationEvidence } from '../../../src/report/terminationEvidence.js';
import { agentReport, checkpoint, phaseRecord } from './records.js';

const lossRules = parseTerminationConfig({
  agents: {
    operator: {
      success: {
        metric: 'loss',
        threshold: 0.2,
        direction: 'less_equal',
        consecutive: 1,
        min_evaluations: 3,
      },
    },
  },
});

function episode(number: number, evaluation: boolean): EpisodeRecord {
  return {
    runId: 'r',
    phaseIndex: 0,
    episode: number,
    mode: 'train',
    evaluation,
    episodeReturn: 1,
    steps: 4,
    returnsByAgent: { operator: 1 },
    doneReason: 'max_steps',
  };
}

describe('terminationEvidence for success', () => {
  const checkpoints = [
    checkpoint(0, {
      agents: [agentReport({ successValue: 0.1, successStreak: 1, validEvaluations: 1 })],
    }),
    checkpoint(1, {
      agents: [agentReport({ status: 'invalid', successStreak: 0, validEvaluations: 1 })],
    }),
    checkpoint(2, {
      agents: [agentReport({ successValue: 0.15, successStreak: 1, validEvaluations: 2 })],
    }),
    checkpoint(3, {
      status: 'rejected',
      agents: [agentReport({ successValue: 0.01, successStreak: 9, validEvaluations: 9 })],
    }),
    checkpoint(4, {
      agents: [agentReport({ status: 'duplicate', successStreak: 1, validEvaluations: 2 })],
    }),
    checkpoint(5, {
      control: 'STOP_PHASE',
      reason: 'success',
      agents: [agentReport({ successValue: 0.12, successStreak: 2, validEvaluations: 3 })],
    }),
    checkpoint(6, { control: 'STOP_PHASE', reason: 'success', agents: [] }),
  ];

  it('names the streak values after the last reset, skipping duplicates and rejected checkpoints', () => {
    const evidence = terminationEvidence({
      phase: phaseRecord({ terminationReason: 'success' }),
      checkpoints,
      episodes: [],
      rules: lossRules,
      runError: null,
    });
    expect(evidence.summary).toBe(
      'success: operator loss ≤ 0.2 for 2 consecutive evaluations (0.15, 0.12) (1 required), ' +
        '3 valid evaluations ≥ min 3',
    );
    expect(evidence.decisiveCheckpoint?.checkpointIndex).toBe(5);
  });

  it('still gives the streak when the rules could not be read', () => {
    const evidence = terminationEvidence({
      phase: phaseRecord({ terminationReason: 'success' }),
      checkpoints,
      episodes: [],
      rules: null,
      runError: null,
    });
    expect(evidence.summary).toBe(
      'success: operator success streak 2 (0.15, 0.12), 3 valid evaluations',
    );
  });

  it('says so when no stored checkpoint decided the reason', () => {
    const evidence = terminationEvidence({
      phase: phaseRecord({ terminationReason: 'plateau' }),
      checkpoints: checkpoints.slice(0, 3),
      episodes: [],
      rules: null,
      runError: null,
    });
    expect(evidence).toEqual({
      reason: 'plateau',
      summary: 'plateau: no stored checkpoint decided it',
      decisiveCheckpoint: null,
    });
  });
});

describe('terminationEvidence for endings without a checkpoint', () => {
  const episodes = [episode(1, false), episode(2, false), episode(3, true)];
  const evidenceFor = (fields: Parameters<typeof phaseRecord>[0], runError: string | null = null) =>
    terminationEvidence({
      phase: phaseRecord(fields),
      checkpoints: [],
      episodes,
      rules: null,
      runError,
    }).summary;

  it('counts the episodes of a phase that hit its cap', () => {
    expect(evidenceFor({ terminationReason: 'max_episodes' })).toBe(
      'max_episodes: the phase reached its episode cap after 2 training and 1 evaluation episodes',
    );
  });

  it('gives the run error of a failed phase', () => {
    expect(evidenceFor({ terminationReason: 'failed', status: 'failed' }, 'Error: boom')).toBe(
      'failed: Error: boom (after 2 training and 1 evaluation episodes)',
    );
  });

  it('tells a cancelled phase and one still running', () => {
    expect(evidenceFor({ terminationReason: 'cancelled', status: 'cancelled' })).toBe(
      'cancelled: the run was cancelled after 2 training and 1 evaluation episodes',
    );
    expect(evidenceFor({ terminationReason: null, status: 'running' })).toBe(
      'the phase is still running (2 training and 1 evaluation episodes so far)',
    );
  });
});
