import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTerminationConfig } from '../../../src/domain/termination/index.js';
import { FuzzInputError, formatFuzzReport, fuzzTermination } from '../../../src/fuzz/index.js';
import {
  evaluationArbitrary,
  targetedSequence,
} from '../../../src/fuzz/termination/arbitraries.js';
import {
  parseMetricRange,
  rangeOf,
  resolveMetricRanges,
} from '../../../src/fuzz/termination/metricRanges.js';

const success = (threshold: number) => ({
  metric: 'objective',
  threshold,
  direction: 'greater_equal',
  consecutive: 1,
  min_evaluations: 1,
});
const plateau = (metric: string) => ({
  metric,
  direction: metric === 'loss' ? 'minimize' : 'maximize',
  min_delta: 0.1,
  patience: 2,
  min_evaluations: 1,
  window: 1,
});

/** PPO and SAC both need objective ≥ 1.5; only SAC's plateau reads `loss`. */
const config = parseTerminationConfig({
  agents: {
    PPO: { success: success(1.5), plateau: plateau('objective') },
    SAC: { success: success(1.5), plateau: plateau('loss') },
  },
});
const resolve = (...texts: string[]) => resolveMetricRanges(config, texts.map(parseMetricRange));
const quick = { runs: 40, seed: 3, maxEvaluations: 10 };

describe('per-agent metric ranges', () => {
  it('list the metric ranges first, then each agent override in the rules’ agent order', () => {
    expect(
      resolve('SAC.objective=0:2', 'objective=0:1', 'SAC.loss=-1:1', 'PPO.objective=1:3'),
    ).toEqual([
      { metric: 'objective', low: 0, high: 1, assumed: false },
      { metric: 'objective', agent: 'PPO', low: 1, high: 3, assumed: false },
      { metric: 'loss', agent: 'SAC', low: -1, high: 1, assumed: false },
      { metric: 'objective', agent: 'SAC', low: 0, high: 2, assumed: false },
    ]);
  });

  it('leave out an assumed metric range that every agent reading it overrides', () => {
    expect(resolve('PPO.objective=0:2', 'SAC.objective=0:3', 'SAC.loss=0:5')).toEqual([
      { metric: 'objective', agent: 'PPO', low: 0, high: 2, assumed: false },
      { metric: 'loss', agent: 'SAC', low: 0, high: 5, assumed: false },
      { metric: 'objective', agent: 'SAC', low: 0, high: 3, assumed: false },
    ]);
  });

  it('give an agent its own range and every other agent the metric’s', () => {
    const ranges = resolve('objective=0:1', 'SAC.objective=0:2');
    expect(rangeOf(ranges, 'objective', 'SAC')).toMatchObject({ low: 0, high: 2 });
    expect(rangeOf(ranges, 'objective', 'PPO')).toMatchObject({ low: 0, high: 1 });
  });

  it('read a name that is a metric of the rules as that metric, even with a dot', () => {
    const dotted = parseTerminationConfig({
      agents: { SAC: { success: { ...success(0.5), metric: 'SAC.objective' } } },
    });
    expect(resolveMetricRanges(dotted, [parseMetricRange('SAC.objective=0:2')])).toEqual([
      { metric: 'SAC.objective', low: 0, high: 2, assumed: false },
    ]);
  });

  it.each([
    [
      'XYZ.objective=0:2',
      '--metric XYZ.objective: "XYZ" is not an agent of the rules (agents: PPO, SAC), and no rule reads a metric "XYZ.objective"',
    ],
    [
      'PPO.loss=0:2',
      '--metric PPO.loss: no rule of agent PPO reads loss; its rules read objective',
    ],
    ['reward=0:1', '--metric reward: no rule reads this metric; the rules read loss, objective'],
  ])('reject %s with a message naming it', (text, message) => {
    expect(() => resolve(text)).toThrow(new FuzzInputError(message));
  });

  it('reject an agent range given twice, but not beside the metric’s range', () => {
    expect(() => resolve('SAC.objective=0:2', 'SAC.objective=0:3')).toThrow(
      new FuzzInputError('--metric SAC.objective: given more than once'),
    );
    expect(() => resolve('SAC.objective=0:2', 'objective=0:3')).not.toThrow();
  });

  it('draw every agent’s values from its own range', () => {
    const ranges = resolve('objective=0:1', 'SAC.objective=5:6');
    fc.assert(
      fc.property(evaluationArbitrary(config, ranges), (evaluation) => {
        const ppo = evaluation.PPO?.objective ?? Number.NaN;
        const sac = evaluation.SAC?.objective ?? Number.NaN;
        return ppo >= 0 && ppo <= 1 && sac >= 5 && sac <= 6;
      }),
      { numRuns: 200, seed: 1 },
    );
    expect(targetedSequence(config, ranges, 'high', 1)).toEqual([
      { PPO: { objective: 1 }, SAC: { loss: 1, objective: 6 } },
    ]);
  });

  it('find success unreachable when only one agent’s range reaches its threshold', () => {
    const report = fuzzTermination(config, {
      ...quick,
      ranges: ['objective=0:1', 'SAC.objective=0:2'].map(parseMetricRange),
      require: ['success'],
    });
    expect(report.reasons[0]).toMatchObject({
      reason: 'success',
      reachable: false,
      note: 'agent "PPO" needs objective ≥ 1.5, outside the range 0:1',
    });
    expect(report.unreachableRequired).toEqual(['success']);
    expect(formatFuzzReport(report, 'rules.yaml')).toContain(
      'metric ranges: loss 0:1 (assumed; give --metric loss=LOW:HIGH), objective 0:1, SAC.objective 0:2',
    );
  });

  it('find success in one evaluation once both agents’ ranges reach the threshold', () => {
    const report = fuzzTermination(config, {
      ...quick,
      ranges: ['objective=0:1', 'SAC.objective=0:2', 'PPO.objective=1:2'].map(parseMetricRange),
      require: ['success'],
    });
    const found = report.reasons[0]!;
    expect(found).toMatchObject({ reachable: true, fewestEvaluations: 1, provenMinimal: true });
    expect(found.example?.[0]?.PPO?.objective).toBeGreaterThanOrEqual(1.5);
    expect(found.example?.[0]?.SAC?.objective).toBeGreaterThanOrEqual(1.5);
    expect(report.unreachableRequired).toEqual([]);
  });
});
