import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTerminationConfig } from '../../../src/domain/termination/index.js';
import {
  evaluationArbitrary,
  specialValues,
  targetedSequence,
} from '../../../src/fuzz/termination/arbitraries.js';
import type { MetricRange } from '../../../src/fuzz/termination/metricRange.js';
import {
  metricsByAgent,
  outcomesOf,
  playSequence,
} from '../../../src/fuzz/termination/sequences.js';
import { successRule } from '../../support/terminationRules.js';

const config = parseTerminationConfig({
  agents: {
    SAC: { success: successRule({ consecutive: 1, min_evaluations: 2 }) },
    PPO: { success: successRule({ consecutive: 1, min_evaluations: 2 }) },
  },
});
const ranges: MetricRange[] = [{ metric: 'objective', low: -1, high: 3, assumed: false }];

describe('metric sequences', () => {
  it('turns one evaluation into one outcome per agent with consecutive episodes', () => {
    expect(metricsByAgent(config)).toEqual({ PPO: ['objective'], SAC: ['objective'] });
    expect(outcomesOf(config, { PPO: { objective: 1 }, SAC: { objective: 2 } }, 3)).toEqual([
      { agentName: 'PPO', evaluationId: 'PPO-3', evaluationEpisode: 3, metrics: { objective: 1 } },
      { agentName: 'SAC', evaluationId: 'SAC-3', evaluationEpisode: 3, metrics: { objective: 2 } },
    ]);
  });

  it('plays a sequence through the real rules and stops at the terminal checkpoint', () => {
    const high = { PPO: { objective: 0.9 }, SAC: { objective: 0.9 } };
    const played = playSequence(config, [high, high, high, high]);
    expect(played).toMatchObject({ reason: 'success', evaluations: 2 });
    expect(played.lastActiveState.terminationReason).toBeNull();
    expect(played.lastActiveState.agents.SAC?.validEvaluations).toBe(1);
  });

  it('builds targeted sequences: constant at the threshold, at either end, and monotone ramps', () => {
    const values = (pattern: Parameters<typeof targetedSequence>[2]) =>
      targetedSequence(config, ranges, pattern, 3).map((evaluation) => evaluation.SAC?.objective);
    expect(values('threshold')).toEqual([0.8, 0.8, 0.8]);
    expect(values('low')).toEqual([-1, -1, -1]);
    expect(values('high')).toEqual([3, 3, 3]);
    expect(values('mid')).toEqual([1, 1, 1]);
    expect(values('rampUp')).toEqual([-1, 1, 3]);
    expect(values('rampDown')).toEqual([3, 1, -1]);
  });

  it('keeps ramp values on the 1000-step grid, readable at any length', () => {
    const unit: MetricRange[] = [{ metric: 'objective', low: 0, high: 1, assumed: true }];
    const ramp = targetedSequence(config, unit, 'rampUp', 15).map(
      (evaluation) => evaluation.SAC?.objective,
    );
    expect(ramp.slice(0, 4)).toEqual([0, 0.071, 0.143, 0.214]);
    expect(ramp.at(-1)).toBe(1);
  });

  it('ramps towards the success threshold without reaching it', () => {
    const ramp = targetedSequence(config, ranges, 'rampShortOfThreshold', 3).map(
      (evaluation) => evaluation.SAC?.objective,
    );
    // from the low end -1 towards 0.8: a third, two thirds of the way
    expect(ramp).toEqual([-1, -0.4006, 0.2006]);
  });

  it('draws values only within the range, the special values included', () => {
    expect(specialValues(config, ranges[0]!)).toEqual([-1, 3, 1, 0.8]);
    const samples = fc.sample(evaluationArbitrary(config, ranges), { numRuns: 300, seed: 3 });
    const drawn = samples.flatMap((evaluation) => [
      evaluation.PPO!.objective!,
      evaluation.SAC!.objective!,
    ]);
    expect(drawn.every((value) => value >= -1 && value <= 3)).toBe(true);
    expect(drawn).toContain(0.8);
    expect(new Set(drawn).size).toBeGreaterThan(50);
  });
});
