import { describe, expect, it } from 'vitest';
import {
  applyCheckpoint,
  createTerminationState,
  fromStateDict,
  parseTerminationConfig,
  type TerminationStateDict,
  TerminationStateError,
  toStateDict,
} from '../../../src/domain/termination/index.js';
import { outcome, plateauRule, successRule } from '../../support/terminationRules.js';

const config = parseTerminationConfig({
  agents: { SAC: { success: successRule(), plateau: plateauRule({ window: 2 }) } },
});

function progressed() {
  let state = createTerminationState(config);
  [0.5, 0.6, Number.NaN, 0.7].forEach((value, index) => {
    state = applyCheckpoint(state, [outcome('SAC', index, value)]).state;
  });
  return state;
}

function dict(): TerminationStateDict {
  return JSON.parse(JSON.stringify(toStateDict(progressed()))) as TerminationStateDict;
}

function messageOf(raw: unknown): string {
  try {
    fromStateDict(config, raw);
  } catch (error) {
    expect(error).toBeInstanceOf(TerminationStateError);
    expect((error as TerminationStateError).code).toBe('TERMINATION_STATE');
    return (error as Error).message;
  }
  throw new Error('expected fromStateDict to throw');
}

describe('toStateDict / fromStateDict', () => {
  it('writes a versioned dict with the fingerprint, configuration and per-agent counters', () => {
    const written = dict();
    expect(written.version).toBe(1);
    expect(written.configuration_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(written.configuration.success.SAC).toMatchObject({ min_evaluations: 3 });
    expect(written.agents.SAC).toMatchObject({
      last_evaluation: 3,
      valid_evaluations: 3,
      plateau_window: [0.6, 0.7],
      success_streak: 0,
      best_evaluation_id: 'SAC-3',
    });
    expect(Object.keys(written.agents.SAC?.seen ?? {})).toEqual([
      'SAC-0',
      'SAC-1',
      'SAC-2',
      'SAC-3',
    ]);
  });

  it('restores a state that continues exactly like the original', () => {
    const original = progressed();
    const restored = fromStateDict(config, dict());
    const next = [outcome('SAC', 4, 0.9), outcome('SAC', 2, Number.NaN)];
    for (const checkpoint of next) {
      expect(applyCheckpoint(restored, [checkpoint]).decision).toEqual(
        applyCheckpoint(original, [checkpoint]).decision,
      );
    }
    expect(() => applyCheckpoint(restored, [outcome('SAC', 1, 0.1)])).toThrow(
      'already recorded with different data',
    );
  });

  it.each<[string, (d: TerminationStateDict & Record<string, unknown>) => void, string]>([
    [
      'the version',
      (d) => {
        d.version = 2;
      },
      'unsupported termination state version 2; expected 1',
    ],
    [
      'the fingerprint',
      (d) => {
        d.configuration_fingerprint = 'x';
      },
      'termination state configuration_fingerprint does not match this configuration',
    ],
    [
      'the configuration',
      (d) => {
        (d.configuration.success.SAC as Record<string, unknown>).threshold = 0.1;
      },
      'termination state configuration does not match the rules',
    ],
    [
      'the agent set',
      (d) => {
        d.agents = { PPO: d.agents.SAC! };
      },
      'termination state has agents PPO; the rules have SAC',
    ],
    [
      'the reason',
      (d) => {
        d.termination_reason = 'done' as never;
      },
      'termination_reason must be null or one of success, plateau, max_episodes, cancelled, failed, got "done"',
    ],
    [
      'a counter',
      (d) => {
        d.agents.SAC!.success_streak = -1;
      },
      'agents.SAC.success_streak must be a non-negative integer, got -1',
    ],
    [
      'a boolean counter',
      (d) => {
        d.agents.SAC!.plateau_patience = true as never;
      },
      'agents.SAC.plateau_patience must be a non-negative integer, got true',
    ],
    [
      'last_evaluation',
      (d) => {
        d.agents.SAC!.last_evaluation = 1.5;
      },
      'agents.SAC.last_evaluation must be a non-negative integer, got 1.5',
    ],
    [
      'a digest',
      (d) => {
        d.agents.SAC!.seen['SAC-0'] = 'nope';
      },
      'agents.SAC.seen["SAC-0"] must be a base64url sha256 digest, got "nope"',
    ],
    [
      'seen without last_evaluation',
      (d) => {
        d.agents.SAC!.last_evaluation = null;
      },
      'agents.SAC.seen and agents.SAC.last_evaluation disagree: a recorded evaluation needs both',
    ],
    [
      'valid_evaluations',
      (d) => {
        d.agents.SAC!.valid_evaluations = 9;
      },
      'agents.SAC.valid_evaluations (9) exceeds the 4 evaluations seen',
    ],
    [
      'the window',
      (d) => {
        d.agents.SAC!.plateau_window = [0.7];
      },
      'agents.SAC.plateau_window must hold 2 values, got 1',
    ],
    [
      'a window value',
      (d) => {
        d.agents.SAC!.plateau_window = [0.7, null as never];
      },
      'agents.SAC.plateau_window[1] must be a finite number, got null',
    ],
    [
      'best_metric',
      (d) => {
        d.agents.SAC!.best_metric = null;
      },
      'agents.SAC.best_metric must be set exactly when the plateau window is full',
    ],
    [
      'best_evaluation_id',
      (d) => {
        d.agents.SAC!.best_evaluation_id = 3 as never;
      },
      'agents.SAC.best_evaluation_id must be a string or null, got 3',
    ],
  ])('rejects a dict with a bad %s', (_label, corrupt, message) => {
    const written = dict() as TerminationStateDict & Record<string, unknown>;
    corrupt(written);
    expect(messageOf(written)).toBe(message);
  });

  it('rejects something that is not a mapping', () => {
    expect(messageOf([])).toBe('a termination state must be a mapping, got a list');
  });
});
