import { describe, expect, it } from 'vitest';
import {
  compareValues,
  dominates,
  SweepDecisionError,
  type SweepObjective,
} from '../../../src/domain/sweep/index.js';

const max: SweepObjective = { metric: 'reward', weights: { a: 1 }, direction: 'maximize' };
const min: SweepObjective = { metric: 'cost', weights: { a: 1 }, direction: 'minimize' };

describe('dominates', () => {
  it('holds when at least as good everywhere and better somewhere', () => {
    expect(dominates([3, 1], [2, 1], [max, min])).toBe(true);
    expect(dominates([3, 0], [2, 1], [max, min])).toBe(true);
  });

  it('does not hold for a trade-off', () => {
    expect(dominates([3, 2], [2, 1], [max, min])).toBe(false);
    expect(dominates([2, 1], [3, 2], [max, min])).toBe(false);
  });

  it('does not hold between equal values, nor of a trial over itself', () => {
    expect(dominates([2, 1], [2, 1], [max, min])).toBe(false);
  });

  it('reads each objective in its direction', () => {
    expect(dominates([1], [2], [min])).toBe(true);
    expect(dominates([1], [2], [max])).toBe(false);
  });

  it('puts complete values over values with one missing, whatever the rest', () => {
    expect(dominates([-100, 100], [5, null], [max, min])).toBe(true);
    expect(dominates([5, null], [-100, 100], [max, min])).toBe(false);
  });

  it('between two incomplete value sets, counts a missing value as worse than any', () => {
    expect(dominates([5, null], [null, null], [max, min])).toBe(true);
    expect(dominates([5, null], [4, null], [max, min])).toBe(true);
    expect(dominates([5, null], [null, 1], [max, min])).toBe(false);
    expect(dominates([null, null], [null, null], [max, min])).toBe(false);
  });

  it('refuses value lists of another length than the objectives', () => {
    expect(() => dominates([1], [1, 2], [max, min])).toThrow(SweepDecisionError);
  });
});

describe('compareValues', () => {
  it('orders best first in the direction, null last', () => {
    expect(compareValues(3, 1, 'maximize')).toBeLessThan(0);
    expect(compareValues(3, 1, 'minimize')).toBeGreaterThan(0);
    expect(compareValues(null, -1e300, 'maximize')).toBeGreaterThan(0);
    expect(compareValues(null, 1e300, 'minimize')).toBeGreaterThan(0);
    expect(compareValues(null, null, 'minimize')).toBe(0);
    expect(compareValues(0, -0, 'maximize')).toBe(0);
  });
});
