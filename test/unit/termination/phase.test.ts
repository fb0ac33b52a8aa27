import { describe, expect, it } from 'vitest';
import {
  TerminationConfigError,
  validatePhaseConfiguration,
} from '../../../src/domain/termination/index.js';

function messageOf(phase: Record<string, unknown>): string {
  try {
    validatePhaseConfiguration(phase);
  } catch (error) {
    expect(error).toBeInstanceOf(TerminationConfigError);
    return (error as Error).message;
  }
  throw new Error('expected validatePhaseConfiguration to throw');
}

describe('validatePhaseConfiguration', () => {
  it('accepts a cap-free train phase with a positive evaluate_every', () => {
    expect(validatePhaseConfiguration({ mode: 'train', evaluate_every: 5 })).toEqual({
      mode: 'train',
      worker: 1,
      episodes: null,
      evaluateEvery: 5,
    });
  });

  it('accepts explicit episodes: null as the cap-free alias and camelCase evaluateEvery', () => {
    expect(
      validatePhaseConfiguration({ mode: 'train', episodes: null, evaluateEvery: 2 }).episodes,
    ).toBeNull();
  });

  it('accepts a capped test phase without evaluate_every', () => {
    expect(validatePhaseConfiguration({ mode: 'test', episodes: 3 })).toEqual({
      mode: 'test',
      worker: 1,
      episodes: 3,
      evaluateEvery: null,
    });
  });

  it('defaults mode to train', () => {
    expect(messageOf({})).toBe(
      'phase.evaluate_every must be a positive integer for a train phase, got nothing',
    );
  });

  it.each([
    [
      { worker: 2, evaluate_every: 1 },
      'phase.worker must be exactly 1 (evaluation termination supports one worker), got 2',
    ],
    [
      { worker: true, evaluate_every: 1 },
      'phase.worker must be exactly 1 (evaluation termination supports one worker), got true',
    ],
    [
      { evaluate_every: 0 },
      'phase.evaluate_every must be a positive integer for a train phase, got 0',
    ],
    [
      { evaluate_every: true },
      'phase.evaluate_every must be a positive integer for a train phase, got true',
    ],
    [
      { mode: 'test' },
      'phase.episodes is required for a test phase: cap-free evaluation termination is supported only for train phases',
    ],
    [
      { evaluate_every: 1, episodes: 0 },
      'phase.episodes must be a positive integer when provided, got 0',
    ],
    [
      { evaluate_every: 1, episodes: false },
      'phase.episodes must be a positive integer when provided, got false',
    ],
    [
      { evaluate_every: 1, episodes: 2.5 },
      'phase.episodes must be a positive integer when provided, got 2.5',
    ],
  ])('rejects %j', (phase, expected) => {
    expect(messageOf(phase)).toBe(expected);
  });
});
