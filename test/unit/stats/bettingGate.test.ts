import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type BettingGateState,
  bettingGate,
  foldBettingGate,
  gateWealth,
} from '../../../src/domain/stats/bettingGate.js';
import { StatisticsInputError } from '../../../src/domain/stats/errors.js';

interface ReferencePath {
  readonly name: string;
  readonly threshold: number;
  readonly total: number;
  readonly results: number[];
  readonly nullMeans: number[];
  readonly logWealthPass: number[];
  readonly logWealthFail: number[];
}

const reference = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../fixtures/stats/betting.json'), 'utf8'),
) as { cases: ReferencePath[] };

/** The wealth path of the gate, step by step, with an alpha too small to ever stop on wealth. */
function pathOf(results: readonly number[], threshold: number, total: number): BettingGateState[] {
  let gate = bettingGate({ threshold, alpha: 1e-300, total });
  return results.map((result) => {
    gate = foldBettingGate(gate, result);
    return gate;
  });
}

describe('bettingGate', () => {
  for (const expected of reference.cases) {
    it(`matches the numpy transcription of the paper's wealth: ${expected.name}`, () => {
      const states = pathOf(expected.results, expected.threshold, expected.total);
      states.forEach((state, index) => {
        expect(state.logWealthPass).toBeCloseTo(expected.logWealthPass[index]!, 10);
        expect(state.logWealthFail).toBeCloseTo(expected.logWealthFail[index]!, 10);
      });
    });
  }

  it('stops at the first result whose wealth reaches 1/alpha, and folds nothing after', () => {
    const expected = reference.cases.find((c) => c.name.startsWith('all passes'))!;
    const bar = Math.log(20);
    const first = expected.logWealthPass.findIndex((log) => log >= bar) + 1;
    let gate = bettingGate({ threshold: 0.8, alpha: 0.05, total: expected.total });
    for (const result of expected.results) gate = foldBettingGate(gate, result);
    expect(gate).toMatchObject({ decision: 'pass', decidedBy: 'wealth', decidedAt: first });
    expect(gate.folded).toBe(first);
    expect(gateWealth(gate)).toBeGreaterThanOrEqual(20);
    expect(foldBettingGate(gate, 0)).toBe(gate);
  });

  it('fails on the wealth betting below the threshold when results run low', () => {
    let gate = bettingGate({ threshold: 0.8, alpha: 0.05, total: 10000 });
    for (let i = 0; gate.decision === null; i++) gate = foldBettingGate(gate, i % 2);
    expect(gate).toMatchObject({ decision: 'fail', decidedBy: 'wealth' });
    expect(gate.logWealthFail).toBeGreaterThanOrEqual(Math.log(20));
    // the running mean never rose above the null: it never bet on passing
    expect(gate.logWealthPass).toBe(0);
  });

  it('decides exactly once the results seen settle the mean, without error', () => {
    // 10 cases, p0 0.7: 7 passes settle it whatever the other 3 are
    let gate = bettingGate({ threshold: 0.7, alpha: 1e-12, total: 10 });
    for (let i = 0; i < 7; i++) gate = foldBettingGate(gate, 1);
    expect(gate).toMatchObject({ decision: 'pass', decidedBy: 'exact', decidedAt: 7 });
    // 4 failures of 10 leave at most 6 passes: below 7
    gate = bettingGate({ threshold: 0.7, alpha: 1e-12, total: 10 });
    for (let i = 0; i < 4; i++) gate = foldBettingGate(gate, 0);
    expect(gate).toMatchObject({ decision: 'fail', decidedBy: 'exact', decidedAt: 4 });
  });

  it('has decided when the population runs out, by the exact mean', () => {
    const results = [1, 1, 0, 1, 1, 1, 0, 1, 1, 0];
    let gate = bettingGate({ threshold: 0.7, alpha: 1e-12, total: 10 });
    for (const result of results) gate = foldBettingGate(gate, result);
    expect(gate.decision).toBe('pass');
    gate = bettingGate({ threshold: 0.71, alpha: 1e-12, total: 10 });
    for (const result of results) gate = foldBettingGate(gate, result);
    expect(gate.decision).toBe('fail');
  });

  it('is plain JSON: a gate restored from its JSON folds on to the same state', () => {
    const expected = reference.cases.find((c) => c.name.startsWith('scores'))!;
    let whole = bettingGate({ threshold: 0.5, alpha: 1e-300, total: 100 });
    let resumed = whole;
    expected.results.forEach((result, index) => {
      whole = foldBettingGate(whole, result);
      resumed = foldBettingGate(resumed, result);
      if (index % 7 === 3) resumed = JSON.parse(JSON.stringify(resumed)) as BettingGateState;
    });
    expect(resumed).toEqual(whole);
  });

  it('refuses parameters and results it cannot work with', () => {
    expect(() => bettingGate({ threshold: 1, alpha: 0.05, total: 3 })).toThrow(
      StatisticsInputError,
    );
    expect(() => bettingGate({ threshold: 0.5, alpha: 0, total: 3 })).toThrow(/alpha/);
    expect(() => bettingGate({ threshold: 0.5, alpha: 0.05, total: 0 })).toThrow(/total/);
    const gate = bettingGate({ threshold: 0.5, alpha: 0.05, total: 1 });
    expect(() => foldBettingGate(gate, 1.5)).toThrow(/\[0, 1\]/);
    expect(() => foldBettingGate(gate, Number.NaN)).toThrow(StatisticsInputError);
  });
});
