import { describe, expect, it } from 'vitest';
import { parseTerminationConfig } from '../../../src/domain/termination/index.js';
import { FuzzInputError } from '../../../src/fuzz/index.js';
import {
  metricsReadBy,
  parseMetricRange,
  resolveMetricRanges,
} from '../../../src/fuzz/termination/metricRanges.js';
import { successRule } from '../../support/terminationRules.js';

const config = parseTerminationConfig({
  agents: {
    SAC: {
      success: successRule({ consecutive: 1, min_evaluations: 1 }),
      plateau: {
        metric: 'loss',
        direction: 'minimize',
        min_delta: 0.1,
        patience: 1,
        min_evaluations: 1,
        window: 1,
      },
    },
  },
});

describe('parseMetricRange', () => {
  it('reads NAME=LOW:HIGH with any finite numbers', () => {
    expect(parseMetricRange('objective=0:1')).toEqual({
      metric: 'objective',
      low: 0,
      high: 1,
      assumed: false,
    });
    expect(parseMetricRange('loss=-2.5:1e3')).toEqual({
      metric: 'loss',
      low: -2.5,
      high: 1000,
      assumed: false,
    });
  });

  it.each([
    ['objective', '--metric objective: expected NAME=LOW:HIGH, for example objective=0:1'],
    ['objective=a:1', '--metric objective=a:1: the low end must be a finite number, got "a"'],
    [
      'objective=0:Infinity',
      '--metric objective=0:Infinity: the high end must be a finite number, got "Infinity"',
    ],
    ['objective=1:1', '--metric objective=1:1: the low end 1 must be below the high end 1'],
  ])('rejects %s with a message naming the option', (text, message) => {
    expect(() => parseMetricRange(text)).toThrow(new FuzzInputError(message));
  });
});

describe('resolveMetricRanges', () => {
  it('lists the metrics every rule reads, sorted', () => {
    expect(metricsReadBy(config)).toEqual(['loss', 'objective']);
  });

  it('gives every metric without a --metric the assumed range 0:1', () => {
    expect(resolveMetricRanges(config, [parseMetricRange('loss=0:10')])).toEqual([
      { metric: 'loss', low: 0, high: 10, assumed: false },
      { metric: 'objective', low: 0, high: 1, assumed: true },
    ]);
  });

  it('widens an assumed range to twice each success threshold outside 0:1, and says from which', () => {
    const rules = (thresholds: Record<string, number>) =>
      parseTerminationConfig({
        agents: Object.fromEntries(
          Object.entries(thresholds).map(([agent, threshold]) => [
            agent,
            { success: successRule({ threshold }) },
          ]),
        ),
      });
    expect(resolveMetricRanges(rules({ operator: 33 }), [])).toEqual([
      {
        metric: 'objective',
        low: 0,
        high: 66,
        assumed: true,
        assumedFrom: "twice operator's success threshold 33",
      },
    ]);
    expect(resolveMetricRanges(rules({ A: -25, B: 0.8, C: 3 }), [])).toEqual([
      {
        metric: 'objective',
        low: -50,
        high: 6,
        assumed: true,
        assumedFrom: "twice A's success threshold -25 and C's success threshold 3",
      },
    ]);
    // an agent with its own range does not widen the range the others share
    expect(
      resolveMetricRanges(rules({ A: 0.5, B: 40 }), [parseMetricRange('B.objective=0:50')]),
    ).toEqual([
      { metric: 'objective', low: 0, high: 1, assumed: true },
      { metric: 'objective', agent: 'B', low: 0, high: 50, assumed: false },
    ]);
  });

  it('rejects a range of a metric no rule reads, and a metric given twice', () => {
    expect(() => resolveMetricRanges(config, [parseMetricRange('reward=0:1')])).toThrow(
      '--metric reward: no rule reads this metric; the rules read loss, objective',
    );
    expect(() =>
      resolveMetricRanges(config, [parseMetricRange('loss=0:1'), parseMetricRange('loss=0:2')]),
    ).toThrow('--metric loss: given more than once');
  });
});
