import fc from 'fast-check';
import type { TerminationConfig } from '../../domain/termination/config.js';
import type { MetricRange } from './metricRanges.js';
import { rangeOf } from './metricRanges.js';
import type { MetricEvaluation, MetricSequence } from './sequences.js';
import { metricsByAgent } from './sequences.js';

/** Steps of the value grid a metric range is sampled on (readable examples). */
const GRID_STEPS = 1000;

/**
 * The values of a range worth trying on purpose, low end first (fast-check
 * shrinks a `constantFrom` towards its first value): the ends, the midpoint
 * and every success threshold of the metric that lies in the range.
 *
 * @example
 * ```ts
 * specialValues(config, { metric: 'objective', low: 0, high: 1, assumed: true });
 * // [0, 1, 0.5, 0.8]
 * ```
 */
export function specialValues(config: TerminationConfig, range: MetricRange): number[] {
  const values = [range.low, range.high, roundValue((range.low + range.high) / 2)];
  for (const agentName of config.agentNames) {
    const success = config.agents[agentName]?.success;
    if (success && success.metric === range.metric) values.push(success.threshold);
  }
  return [...new Set(values)].filter((value) => value >= range.low && value <= range.high);
}

/**
 * Values of one metric within its range: the special values, or a point of a
 * 1000-step grid (readable numbers such as `0.237`). Shrinks to the low end.
 *
 * @example
 * ```ts
 * fc.sample(metricValueArbitrary(config, range), 3); // e.g. [0.8, 0.412, 0]
 * ```
 */
export function metricValueArbitrary(
  config: TerminationConfig,
  range: MetricRange,
): fc.Arbitrary<number> {
  const grid = fc
    .integer({ min: 0, max: GRID_STEPS })
    .map((step) => gridValue(range, step / GRID_STEPS));
  return fc.oneof(fc.constantFrom(...specialValues(config, range)), grid);
}

/**
 * One evaluation checkpoint: a value for every metric every agent's rules read.
 *
 * @example
 * ```ts
 * fc.sample(evaluationArbitrary(config, ranges), 1); // e.g. [{ PPO: { objective: 0.8 }, SAC: { objective: 0.12 } }]
 * ```
 */
export function evaluationArbitrary(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
): fc.Arbitrary<MetricEvaluation> {
  const perAgent: Record<string, fc.Arbitrary<Record<string, number>>> = {};
  for (const [agentName, metrics] of Object.entries(metricsByAgent(config))) {
    const perMetric: Record<string, fc.Arbitrary<number>> = {};
    for (const metric of metrics) {
      perMetric[metric] = metricValueArbitrary(config, rangeOf(ranges, metric, agentName));
    }
    perAgent[agentName] = fc.record(perMetric);
  }
  return fc.record(perAgent);
}

/**
 * Sequences of `minLength` to `maxLength` evaluation checkpoints.
 *
 * @example
 * ```ts
 * fc.sample(sequenceArbitrary(config, ranges, { minLength: 4, maxLength: 4 }), 1)[0]?.length; // 4
 * ```
 */
export function sequenceArbitrary(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
  length: { readonly minLength: number; readonly maxLength: number },
): fc.Arbitrary<MetricSequence> {
  return fc.array(evaluationArbitrary(config, ranges), length);
}

/** How a targeted sequence moves through a metric's range. */
export type TargetedPattern = 'low' | 'high' | 'mid' | 'threshold' | 'rampUp' | 'rampDown';

/** Every targeted pattern, in the order they are tried. */
export const TARGETED_PATTERNS: readonly TargetedPattern[] = [
  'threshold',
  'low',
  'high',
  'mid',
  'rampUp',
  'rampDown',
];

/**
 * A hand-picked sequence of `length` checkpoints, the same pattern for every
 * agent and metric: constant at a threshold (the agent's own success threshold
 * if it is in the agent's range, else another agent's on the same metric, else
 * the midpoint), constant at either end or the
 * midpoint, or a monotone ramp across the range.
 *
 * @example
 * ```ts
 * targetedSequence(config, ranges, 'rampUp', 3);
 * // [{ SAC: { objective: 0 } }, { SAC: { objective: 0.5 } }, { SAC: { objective: 1 } }]
 * ```
 */
export function targetedSequence(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
  pattern: TargetedPattern,
  length: number,
): MetricSequence {
  const agents = metricsByAgent(config);
  const sequence: MetricEvaluation[] = [];
  for (let index = 0; index < length; index++) {
    const evaluation: Record<string, Record<string, number>> = {};
    for (const [agentName, metrics] of Object.entries(agents)) {
      const values: Record<string, number> = {};
      for (const metric of metrics) {
        values[metric] = patternValue(
          config,
          agentName,
          rangeOf(ranges, metric, agentName),
          pattern,
          index,
          length,
        );
      }
      evaluation[agentName] = values;
    }
    sequence.push(evaluation);
  }
  return sequence;
}

/**
 * Every targeted sequence of one length, as fast-check `examples`.
 *
 * @example
 * ```ts
 * targetedExamples(config, ranges, 4).length; // 6
 * ```
 */
export function targetedExamples(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
  length: number,
): [MetricSequence][] {
  return TARGETED_PATTERNS.map((pattern) => [targetedSequence(config, ranges, pattern, length)]);
}

function patternValue(
  config: TerminationConfig,
  agentName: string,
  range: MetricRange,
  pattern: TargetedPattern,
  index: number,
  length: number,
): number {
  const fraction = length <= 1 ? 1 : index / (length - 1);
  switch (pattern) {
    case 'low':
      return range.low;
    case 'high':
      return range.high;
    case 'mid':
      return gridValue(range, 0.5);
    case 'threshold':
      return thresholdInRange(config, range, agentName) ?? gridValue(range, 0.5);
    case 'rampUp':
      return gridValue(range, fraction);
    case 'rampDown':
      return gridValue(range, 1 - fraction);
  }
}

/** The agent's own success threshold in the range, else another agent's on the same metric. */
function thresholdInRange(
  config: TerminationConfig,
  range: MetricRange,
  ownAgent: string,
): number | null {
  for (const agentName of [ownAgent, ...config.agentNames]) {
    const success = config.agents[agentName]?.success;
    if (success && success.metric === range.metric) {
      if (success.threshold >= range.low && success.threshold <= range.high)
        return success.threshold;
    }
  }
  return null;
}

function gridValue(range: MetricRange, fraction: number): number {
  if (fraction <= 0) return range.low;
  if (fraction >= 1) return range.high;
  const value = roundValue(range.low + (range.high - range.low) * fraction);
  return Math.min(range.high, Math.max(range.low, value));
}

function roundValue(value: number): number {
  return Number(value.toPrecision(12));
}
