import { describe, expect, it } from 'vitest';
import {
  rungValues,
  SweepDecisionError,
  type SweepObjective,
} from '../../../src/domain/sweep/index.js';

const objective: SweepObjective = { metric: 'm', weights: { a: 1 }, direction: 'maximize' };
const loss: SweepObjective = { metric: 'loss', weights: { a: 1 }, direction: 'minimize' };

function checkpoint(m: number | null, lossValue = 0) {
  return { outcomes: [{ agentName: 'a', metrics: { m, loss: lossValue } }] };
}

const run = [checkpoint(1), checkpoint(2), checkpoint(6), checkpoint(10)];

describe('rungValues', () => {
  it('is null before the run has reached the rung', () => {
    expect(rungValues(run.slice(0, 2), 3, [objective], 1)).toBeNull();
  });

  it('takes the rung’s own checkpoint with window 1', () => {
    expect(rungValues(run, 3, [objective], 1)).toEqual([6]);
  });

  it('averages the last window checkpoints ending at the rung, not the latest ones', () => {
    expect(rungValues(run, 3, [objective], 2)).toEqual([4]);
  });

  it('clips a window longer than the rung at the first checkpoint', () => {
    expect(rungValues(run, 2, [objective], 5)).toEqual([1.5]);
  });

  it('gives one value per objective', () => {
    const run2 = [checkpoint(1, 0.5), checkpoint(3, 0.25)];
    expect(rungValues(run2, 2, [objective, loss], 2)).toEqual([2, 0.375]);
  });

  it('is null for an objective with a missing value in the window, a value outside it does not matter', () => {
    const gappy = [checkpoint(null), checkpoint(2), checkpoint(4)];
    expect(rungValues(gappy, 3, [objective], 3)).toEqual([null]);
    expect(rungValues(gappy, 3, [objective], 2)).toEqual([3]);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses rung %s', (rung) => {
    expect(() => rungValues(run, rung, [objective], 1)).toThrow(SweepDecisionError);
  });

  it.each([0, 2.5])('refuses window %s', (window) => {
    expect(() => rungValues(run, 1, [objective], window)).toThrow(/window must be a positive/);
  });
});
