import { describe, expect, it } from 'vitest';
import {
  paretoRanks,
  type RungEntry,
  rankTrials,
  SweepDecisionError,
  type SweepObjective,
} from '../../../src/domain/sweep/index.js';

const max: SweepObjective = { metric: 'reward', weights: { a: 1 }, direction: 'maximize' };
const min: SweepObjective = { metric: 'loss', weights: { a: 1 }, direction: 'minimize' };

const entry = (trial: number, ...values: (number | null)[]): RungEntry => ({
  trial,
  values,
  prunable: true,
});

describe('rankTrials: one objective', () => {
  it('ranks best first when maximizing', () => {
    expect(rankTrials([entry(0, 1), entry(1, 3), entry(2, 2)], [max])).toEqual([1, 2, 0]);
  });

  it('ranks the smallest first when minimizing', () => {
    expect(rankTrials([entry(0, 1), entry(1, 3), entry(2, 2)], [min])).toEqual([0, 2, 1]);
  });

  it('puts missing values last, in either direction', () => {
    const entries = [entry(0, null), entry(1, -5), entry(2, 5)];
    expect(rankTrials(entries, [max])).toEqual([2, 1, 0]);
    expect(rankTrials(entries, [min])).toEqual([1, 2, 0]);
  });

  it('breaks ties by lower trial index, whatever the order given', () => {
    const entries = [entry(7, 2), entry(3, 2), entry(5, null), entry(1, null), entry(4, 9)];
    expect(rankTrials(entries, [max])).toEqual([4, 3, 7, 1, 5]);
  });

  it('ranks an empty rung as empty', () => {
    expect(rankTrials([], [max])).toEqual([]);
  });
});

describe('rankTrials: several objectives', () => {
  it('ranks by Pareto front, ties in a front by trial index', () => {
    const entries = [
      entry(0, 1, 1), // front 1: dominated by 2
      entry(1, 3, 5), // front 0
      entry(2, 2, 0), // front 0
      entry(3, 0, 9), // front 2: dominated by 0
      entry(4, 3, 5), // front 0: equal to 1, neither dominates
    ];
    expect(rankTrials(entries, [max, min])).toEqual([1, 2, 4, 0, 3]);
    expect(paretoRanks(entries, [max, min])).toEqual(
      new Map([
        [0, 1],
        [1, 0],
        [2, 0],
        [3, 2],
        [4, 0],
      ]),
    );
  });

  it('puts a trial missing a value below every trial that has all of them', () => {
    const entries = [entry(0, 100, null), entry(1, -1, 50), entry(2, null, null)];
    expect(rankTrials(entries, [max, min])).toEqual([1, 0, 2]);
  });
});

describe('rankTrials: refuses', () => {
  it('two entries for one trial', () => {
    expect(() => rankTrials([entry(1, 2), entry(1, 3)], [max])).toThrow(
      /entries\[1\]: trial 1 has two entries/,
    );
  });

  it('a value count other than the objectives’', () => {
    expect(() => rankTrials([entry(0, 2)], [max, min])).toThrow(SweepDecisionError);
    expect(() => rankTrials([entry(0, 2)], [max, min])).toThrow(/has 1 values for 2 objectives/);
  });

  it('a value that is not finite', () => {
    expect(() => rankTrials([entry(0, Number.NaN)], [max])).toThrow(/finite number or null/);
  });

  it('a trial index that is not a whole number', () => {
    expect(() => rankTrials([entry(-1, 2)], [max])).toThrow(/trial must be a whole number/);
  });

  it('no objectives', () => {
    expect(() => rankTrials([entry(0)], [])).toThrow(/at least one objective/);
  });
});
