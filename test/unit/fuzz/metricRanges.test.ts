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

  it('rejects a range of a metric no rule reads, and a metric given twice', () => {
    expect(() => resolveMetricRanges(config, [parseMetricRange('reward=0:1')])).toThrow(
      '--metric reward: no rule reads this metric; the rules read loss, objective',
    );
    expect(() =>
      resolveMetricRanges(config, [parseMetricRange('loss=0:1'), parseMetricRange('loss=0:2')]),
    ).toThrow('--metric loss: given more than once');
  });
});
