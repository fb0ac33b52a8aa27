import { describe, expect, it } from 'vitest';
import {
  foldSequentialGates,
  gateValue,
  type SequentialGateState,
  sequentialGateReports,
  sequentialGates,
  unitThreshold,
} from '../../../src/domain/judge/sequentialGate.js';

const passRate = { gate: 'min_pass_rate', threshold: 0.8 } as const;
const meanScore = { gate: 'min_mean_score', threshold: 7, scoreRange: [0, 10] } as const;

describe('sequential gates over judge results', () => {
  it('counts a skipped case and an erring judgement as failed for a pass-rate gate', () => {
    expect(gateValue(passRate, { status: 'passed', score: 0 })).toBe(1);
    expect(gateValue(passRate, { status: 'failed', score: 1 })).toBe(0);
    expect(gateValue(passRate, { status: 'skipped', score: null })).toBe(0);
    expect(gateValue(passRate, { status: 'error', score: null })).toBe(0);
  });

  it('maps a score from its declared range, and counts no score or one outside it as the bottom', () => {
    expect(unitThreshold(meanScore)).toBe(0.7);
    expect(gateValue(meanScore, { status: 'failed', score: 4 })).toBe(0.4);
    expect(gateValue(meanScore, { status: 'passed', score: 11 })).toBe(0);
    expect(gateValue(meanScore, { status: 'error', score: null })).toBe(0);
  });

  it('fails as soon as one gate fails, and passes only when every gate has passed', () => {
    let state: SequentialGateState = sequentialGates([passRate, meanScore], {
      alpha: 0.05,
      total: 10000,
      seed: 1,
    });
    // every case passes with a score of 5 of 10: the pass rate passes, the mean score fails
    while (state.decision === null)
      state = foldSequentialGates(state, { status: 'passed', score: 5 });
    const [rate, score] = sequentialGateReports(state);
    expect(state.decision).toBe('fail');
    expect(score).toMatchObject({ gate: 'min_mean_score', decision: 'fail', decidedBy: 'wealth' });
    expect(state.decidedAt).toBe(score!.decidedAt);
    expect(rate!.decision === 'pass' || rate!.decision === null).toBe(true);
    expect(score!.observed).toBe(5);
    // on the scores' scale, around the observed 5 (a 95% two-sided sequence: wider than the one-sided test)
    const [lower, upper] = score!.confidenceSequence;
    expect(lower).toBeGreaterThan(2);
    expect(lower).toBeLessThan(5);
    expect(upper).toBeGreaterThan(5);
    expect(upper).toBeLessThan(7.5);
  });

  it('reports the confidence sequence on the gate’s own scale', () => {
    let state = sequentialGates([meanScore], { alpha: 0.05, total: 1000, seed: 1 });
    for (let i = 0; i < 300; i++) {
      state = foldSequentialGates(state, { status: 'passed', score: i % 2 === 0 ? 9 : 8 });
    }
    const [report] = sequentialGateReports(state);
    expect(report!.decision).toBe('pass');
    // folded up to the decision only, on the scores' scale around the observed 8.5
    expect(state.folded).toBe(report!.decidedAt);
    const [lower, upper] = report!.confidenceSequence;
    expect(report!.observed).toBeCloseTo(8.5, 1);
    expect(lower).toBeGreaterThan(5);
    expect(lower).toBeLessThan(8.5);
    expect(upper).toBeGreaterThan(8.5);
    expect(upper).toBeLessThanOrEqual(10);
  });
});
