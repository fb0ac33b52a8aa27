import { describe, expect, it } from 'vitest';
import {
  decideRung,
  medianOf,
  type RungEntry,
  SweepDecisionError,
  type SweepObjective,
  type SweepPruner,
} from '../../../src/domain/sweep/index.js';

const max: SweepObjective = {
  metric: 'objective',
  weights: { operator: 1 },
  direction: 'maximize',
};
const min: SweepObjective = { metric: 'loss', weights: { operator: 1 }, direction: 'minimize' };

const halving: SweepPruner = { kind: 'successive_halving', rungs: [3, 6], eta: 2 };
const median: SweepPruner = { kind: 'median', rungs: [3, 6], window: 2, minTrials: 3 };

const entry = (trial: number, ...values: (number | null)[]): RungEntry => ({
  trial,
  values,
  prunable: true,
});
const ended = (trial: number, ...values: (number | null)[]): RungEntry => ({
  trial,
  values,
  prunable: false,
});

describe('decideRung: successive halving, one objective', () => {
  it('keeps the best half of a 4-trial rung with eta 2', () => {
    const entries = [entry(0, 6.6), entry(1, 7.1), entry(2, 5.0), entry(3, 8.2)];
    expect(decideRung(halving, 0, entries, [max])).toEqual({
      rungIndex: 0,
      rung: 3,
      ranking: [3, 1, 0, 2],
      kept: [1, 3],
      pruned: [0, 2],
      median: null,
    });
  });

  it('keeps ceil(n / eta), and at least one', () => {
    const five = [0, 1, 2, 3, 4].map((trial) => entry(trial, trial));
    expect(decideRung({ ...halving, eta: 3 }, 1, five, [max])).toMatchObject({
      rung: 6,
      kept: [3, 4],
    });
    expect(decideRung({ ...halving, eta: 10 }, 0, five, [max]).kept).toEqual([4]);
    expect(decideRung(halving, 0, [entry(9, 1)], [max]).kept).toEqual([9]);
  });

  it('keeps the smallest values when minimizing', () => {
    const entries = [entry(0, 0.3), entry(1, 0.1), entry(2, 0.4), entry(3, 0.2)];
    expect(decideRung(halving, 0, entries, [min])).toMatchObject({
      ranking: [1, 3, 0, 2],
      kept: [1, 3],
      pruned: [0, 2],
    });
  });

  it('breaks a tie at the cut by lower trial index', () => {
    const entries = [entry(0, 1), entry(1, 5), entry(2, 5), entry(3, 5)];
    expect(decideRung(halving, 0, entries, [max])).toMatchObject({
      kept: [1, 2],
      pruned: [0, 3],
    });
  });

  it('prunes trials with a missing value first', () => {
    const entries = [entry(0, null), entry(1, -3), entry(2, null), entry(3, -9)];
    expect(decideRung(halving, 0, entries, [max])).toMatchObject({
      ranking: [1, 3, 0, 2],
      pruned: [0, 2],
    });
  });

  it('never prunes an ended trial, which still counts and ranks', () => {
    const entries = [entry(0, 6), entry(1, 7), ended(2, 1), entry(3, 8)];
    expect(decideRung(halving, 0, entries, [max])).toMatchObject({
      ranking: [3, 1, 0, 2],
      kept: [1, 2, 3],
      pruned: [0],
    });
  });

  it('lets an ended trial at the top take a kept place', () => {
    const entries = [entry(0, 6), entry(1, 7), ended(2, 9), entry(3, 8)];
    expect(decideRung(halving, 0, entries, [max])).toMatchObject({
      kept: [2, 3],
      pruned: [0, 1],
    });
  });

  it('gives the same decision whatever the order of the entries', () => {
    const entries = [entry(0, 6.6), entry(1, 7.1), entry(2, 5.0), entry(3, 8.2)];
    expect(decideRung(halving, 0, [...entries].reverse(), [max])).toEqual(
      decideRung(halving, 0, entries, [max]),
    );
  });
});

describe('decideRung: successive halving, several objectives', () => {
  it('prunes only dominated trials, worst Pareto rank first, then higher index', () => {
    const entries = [
      entry(0, 5, 5), // front 0
      entry(1, 4, 6), // front 1 (dominated by 0)
      entry(2, 9, 9), // front 0
      entry(3, 3, 7), // front 2
      entry(4, 4, 6), // front 1
      entry(5, 1, 1), // front 0
    ];
    // n 6, keep 3: at most 3 pruned: 3 (rank 2), then 4 and 1 (rank 1, higher index first).
    expect(decideRung(halving, 0, entries, [max, min])).toMatchObject({
      ranking: [0, 2, 5, 1, 4, 3],
      kept: [0, 2, 5],
      pruned: [1, 3, 4],
    });
    // eta 3, keep 2: at most 4, but only 3 are dominated.
    expect(decideRung({ ...halving, eta: 3 }, 0, entries, [max, min]).pruned).toEqual([1, 3, 4]);
    // eta 1.5, keep 4: at most 2: 3, then 4 before 1.
    expect(decideRung({ ...halving, eta: 1.5 }, 0, entries, [max, min]).pruned).toEqual([3, 4]);
  });

  it('keeps every trial of a rung where none is dominated', () => {
    const front = [entry(0, 1, 1), entry(1, 2, 2), entry(2, 3, 3), entry(3, 4, 4)];
    expect(decideRung(halving, 0, front, [max, min]).pruned).toEqual([]);
  });

  it('prunes a trial missing a value before a complete one', () => {
    const entries = [entry(0, 1, 1), entry(1, 2, 2), entry(2, 99, null), entry(3, 3, 3)];
    expect(decideRung({ ...halving, eta: 4 }, 0, entries, [max, min]).pruned).toEqual([2]);
  });

  it('never prunes an ended trial, even the worst ranked one', () => {
    // 3 dominates 0, 0 dominates 2, 2 dominates the ended 1: ranks 0, 1, 2, 3.
    const entries = [entry(0, 5, 5), ended(1, 1, 9), entry(2, 2, 8), entry(3, 6, 4)];
    expect(decideRung(halving, 0, entries, [max, min])).toMatchObject({
      ranking: [3, 0, 2, 1],
      kept: [1, 3],
      pruned: [0, 2],
    });
  });
});

describe('decideRung: median rule', () => {
  it('prunes trials strictly below the median; a tie with the median is kept', () => {
    const entries = [entry(0, 5), entry(1, 3), entry(2, 3), entry(3, 1), entry(4, 3)];
    expect(decideRung(median, 1, entries, [max])).toEqual({
      rungIndex: 1,
      rung: 6,
      ranking: [0, 1, 2, 4, 3],
      kept: [0, 1, 2, 4],
      pruned: [3],
      median: [3],
    });
  });

  it('takes the mean of the two middle values for an even count', () => {
    const entries = [entry(0, 1), entry(1, 2), entry(2, 4), entry(3, 8)];
    expect(decideRung(median, 0, entries, [max])).toMatchObject({
      median: [3],
      pruned: [0, 1],
    });
  });

  it('prunes values above the median when minimizing', () => {
    const entries = [entry(0, 0.1), entry(1, 0.5), entry(2, 0.3)];
    expect(decideRung(median, 0, entries, [min])).toMatchObject({ median: [0.3], pruned: [1] });
  });

  it('leaves missing values out of the median and prunes them', () => {
    const entries = [entry(0, 4), entry(1, null), entry(2, 6), entry(3, 5)];
    expect(decideRung(median, 0, entries, [max])).toMatchObject({
      median: [5],
      pruned: [0, 1],
    });
  });

  it('prunes nothing when no trial has a value', () => {
    const entries = [entry(0, null), entry(1, null), entry(2, null)];
    expect(decideRung(median, 0, entries, [max])).toMatchObject({ median: [null], pruned: [] });
  });

  it('prunes nothing below minTrials, but still reports the median', () => {
    const entries = [entry(0, 1), entry(1, 9)];
    expect(decideRung(median, 0, entries, [max])).toMatchObject({
      median: [5],
      kept: [0, 1],
      pruned: [],
    });
  });

  it('counts ended trials toward minTrials and the median, but never prunes them', () => {
    const entries = [ended(0, 1), entry(1, 9), entry(2, 2), ended(3, 5)];
    expect(decideRung(median, 0, entries, [max])).toMatchObject({
      median: [3.5],
      kept: [0, 1, 3],
      pruned: [2],
    });
  });

  it('with several objectives, prunes only a dominated trial below the median in each', () => {
    const entries = [
      entry(0, 5, 5),
      entry(1, 1, 9), // below both medians and dominated: pruned
      entry(2, 9, 1),
      entry(3, 1, 4), // below the median in reward only: kept
      entry(4, 4, 6),
    ];
    expect(decideRung(median, 0, entries, [max, min])).toMatchObject({
      median: [4, 5],
      kept: [0, 2, 3, 4],
      pruned: [1],
    });
  });

  it('with several objectives, keeps a trial below both medians that no entry dominates', () => {
    // Medians over the values present: [6, 6]. Trial 2 is below both, but the
    // incomplete trials 0 and 1 cannot dominate it.
    const entries = [entry(0, 10, null), entry(1, null, 10), entry(2, 2, 2)];
    const both: SweepObjective[] = [max, { ...max, metric: 'safety' }];
    expect(decideRung(median, 0, entries, both)).toMatchObject({ median: [6, 6], pruned: [] });
    // The same values with one objective each: trial 2 is below the median and pruned.
    const first = entries.map((e) => ({ ...e, values: e.values.slice(0, 1) }));
    expect(decideRung(median, 0, first, [max]).pruned).toEqual([1, 2]);
  });
});

describe('decideRung: none', () => {
  it('prunes nothing and still ranks', () => {
    const pruner: SweepPruner = { kind: 'none', rungs: [2] };
    expect(decideRung(pruner, 0, [entry(0, 1), entry(1, 2)], [max])).toEqual({
      rungIndex: 0,
      rung: 2,
      ranking: [1, 0],
      kept: [0, 1],
      pruned: [],
      median: null,
    });
  });
});

describe('decideRung: refuses', () => {
  it.each([-1, 2, 0.5])('rung index %s outside the rungs', (rungIndex) => {
    expect(() => decideRung(halving, rungIndex, [entry(0, 1)], [max])).toThrow(
      /is not one of the pruner's 2 rungs/,
    );
  });

  it('two entries for one trial', () => {
    expect(() => decideRung(halving, 0, [entry(0, 1), entry(0, 1)], [max])).toThrow(
      SweepDecisionError,
    );
  });

  it('values of another length than the objectives', () => {
    expect(() => decideRung(median, 0, [entry(0, 1, 2)], [max])).toThrow(
      /has 2 values for 1 objectives/,
    );
  });

  it('an eta below 1', () => {
    expect(() => decideRung({ ...halving, eta: 0 }, 0, [entry(0, 1)], [max])).toThrow(
      /needs eta ≥ 1/,
    );
  });
});

describe('medianOf', () => {
  it('is the middle value, or the mean of the two middle ones, of the values present', () => {
    expect(medianOf([4, null, 1, 3])).toBe(3);
    expect(medianOf([4, 1, 3, 2])).toBe(2.5);
    expect(medianOf([null])).toBeNull();
    expect(medianOf([1.7e308, 1.7e308])).toBe(1.7e308);
  });
});
