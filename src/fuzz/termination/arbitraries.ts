import type { Arbitrary, Random, Stream, Value } from 'fast-check';
import type { TerminationConfig } from '../../domain/termination/config.js';
import { fastCheck } from './fastCheck.js';
import type { MetricRange } from './metricRange.js';
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

/** A metric value as an integer code and back: codes up to 1000 are grid steps, the rest special values. */
interface MetricCode {
  readonly toValue: (code: number) => number;
  /** @throws when `value` is neither a special value nor on the grid (no code to shrink from). */
  readonly toCode: (value: unknown) => number;
  /** `{ [metric]: value }` for one code, one shared object per code (read-only, never mutated). */
  readonly entry: (code: number) => MetricEvaluation[string];
}

/** The largest code: grid steps 0 to 1000, then the special values. */
const MAX_CODE = 2 * GRID_STEPS + 1;

/**
 * Uniform codes, without fast-check's bias towards the ends of the integer
 * range: the special values already hold the range's ends, and the bias costs
 * an extra draw per value. Made once, at the first draw (fast-check is loaded
 * then).
 */
function codeArbitrary(): Arbitrary<number> {
  codes ??= fastCheck().noBias(fastCheck().integer({ min: 0, max: MAX_CODE }));
  return codes;
}

let codes: Arbitrary<number> | undefined;

/**
 * Codes per config and range, kept while both live: every search of one
 * fuzz report draws from the same ranges, and filling a grid (a
 * `toPrecision` per step) costs as much as hundreds of draws.
 */
const metricCodes = new WeakMap<TerminationConfig, WeakMap<MetricRange, MetricCode>>();

function metricCode(config: TerminationConfig, range: MetricRange): MetricCode {
  let byRange = metricCodes.get(config);
  if (byRange === undefined) {
    byRange = new WeakMap();
    metricCodes.set(config, byRange);
  }
  let code = byRange.get(range);
  if (code === undefined) {
    code = buildMetricCode(config, range);
    byRange.set(range, code);
  }
  return code;
}

function buildMetricCode(config: TerminationConfig, range: MetricRange): MetricCode {
  const specials = specialValues(config, range);
  // Filled with NaN up front, computed on first use: a dense array stays fast to index.
  const grid = new Float64Array(GRID_STEPS + 1).fill(Number.NaN);
  const toValue = (code: number): number => {
    if (code > GRID_STEPS) return specials[(code - GRID_STEPS - 1) % specials.length]!;
    let value = grid[code]!;
    if (Number.isNaN(value)) {
      value = gridValue(range, code / GRID_STEPS);
      grid[code] = value;
    }
    return value;
  };
  const toCode = (value: unknown): number => {
    if (typeof value !== 'number') throw new Error('not a metric value');
    const special = specials.indexOf(value);
    if (special >= 0) return GRID_STEPS + 1 + special;
    const step = Math.round(((value - range.low) / (range.high - range.low)) * GRID_STEPS);
    if (step >= 0 && step <= GRID_STEPS && toValue(step) === value) return step;
    throw new Error(`${value} is not on the grid of ${range.metric}`);
  };
  const entries = new Array<MetricEvaluation[string] | undefined>(MAX_CODE + 1).fill(undefined);
  const entry = (code: number): MetricEvaluation[string] => {
    let found = entries[code];
    if (found === undefined) {
      found = { [range.metric]: toValue(code) };
      entries[code] = found;
    }
    return found;
  };
  return { toValue, toCode, entry };
}

/**
 * Values of one metric within its range: the special values, or a point of a
 * 1000-step grid (readable numbers such as `0.237`). Shrinks to the low end.
 *
 * One integer code per value, not a `oneof` over two arbitraries: codes up to
 * 1000 are grid steps, the next half the special values, so each half is
 * drawn half the time as before, with one fast-check layer instead of three.
 *
 * @example
 * ```ts
 * fc.sample(metricValueArbitrary(config, range), 3); // e.g. [0.8, 0.412, 0]
 * ```
 */
export function metricValueArbitrary(
  config: TerminationConfig,
  range: MetricRange,
): Arbitrary<number> {
  const { toValue, toCode } = metricCode(config, range);
  return codeArbitrary().map(toValue, toCode);
}

/** Every (agent, metric) an evaluation holds, in order, with its code. */
function evaluationCodes(config: TerminationConfig, ranges: readonly MetricRange[]) {
  const slots: { agentName: string; metric: string; code: MetricCode }[] = [];
  for (const [agentName, metrics] of Object.entries(metricsByAgent(config))) {
    for (const metric of metrics) {
      slots.push({
        agentName,
        metric,
        code: metricCode(config, rangeOf(ranges, metric, agentName)),
      });
    }
  }
  const agents = Object.entries(metricsByAgent(config)).map(([agentName, metrics]) => ({
    agentName,
    metrics,
  }));
  const decodeAgent = (agent: (typeof agents)[number], codes: readonly number[], first: number) => {
    // An agent reading one metric gets the code's shared entry: no allocation per draw.
    if (agent.metrics.length === 1) return slots[first]!.code.entry(codes[first]!);
    const entry: Record<string, number> = {};
    for (let index = 0; index < agent.metrics.length; index++) {
      entry[agent.metrics[index]!] = slots[first + index]!.code.toValue(codes[first + index]!);
    }
    return entry;
  };
  const decode = (codes: readonly number[]): MetricEvaluation => {
    const evaluation: Record<string, MetricEvaluation[string]> = {};
    let first = 0;
    for (const agent of agents) {
      evaluation[agent.agentName] = decodeAgent(agent, codes, first);
      first += agent.metrics.length;
    }
    return evaluation;
  };
  const encode = (value: unknown): number[] =>
    slots.map(({ agentName, metric, code }) => {
      const agent = (value as Record<string, Record<string, unknown>> | null)?.[agentName];
      return code.toCode(agent?.[metric]);
    });
  const codes = fastCheck().tuple(...slots.map(() => codeArbitrary()));
  return { slots: slots.length, codes, decode, encode };
}

/** A shrunk evaluation's codes and their tuple's context. */
interface ShrunkCodes {
  readonly codes: number[];
  readonly tupleContext: unknown;
}

/**
 * One evaluation, drawn as `fc.tuple` of uniform codes mapped by `decode`
 * draws it (one `nextInt` per code, in order, so a seed gives the same
 * values) but without that tuple's `Value` per code and arrays per draw: the
 * search's largest cost outside the rules. It shrinks as the mapped tuple
 * does: from the codes drawn (kept as the context, since `encode` cannot tell
 * a grid step from an equal special value), else from `encode`.
 */
function evaluationArbitraryClass(): EvaluationArbitraryClass {
  if (evaluationArbitraryOf !== undefined) return evaluationArbitraryOf;
  const fc = fastCheck();
  class EvaluationArbitrary extends fc.Arbitrary<MetricEvaluation> {
    constructor(private readonly parts: ReturnType<typeof evaluationCodes>) {
      super();
    }

    generate(random: Random): Value<MetricEvaluation> {
      const drawn = new Array<number>(this.parts.slots);
      for (let index = 0; index < this.parts.slots; index++) {
        drawn[index] = random.nextInt(0, MAX_CODE);
      }
      return new fc.Value(this.parts.decode(drawn), drawn);
    }

    canShrinkWithoutContext(value: unknown): value is MetricEvaluation {
      try {
        return this.parts.codes.canShrinkWithoutContext(this.parts.encode(value));
      } catch {
        return false;
      }
    }

    shrink(value: MetricEvaluation, context: unknown): Stream<Value<MetricEvaluation>> {
      let codes: number[];
      let tupleContext: unknown;
      if (Array.isArray(context)) {
        // Drawn here: the tuple gives its own draws no context either.
        codes = context as number[];
      } else if (context !== undefined) {
        ({ codes, tupleContext } = context as ShrunkCodes);
      } else {
        codes = this.parts.encode(value);
      }
      return this.parts.codes.shrink(codes, tupleContext).map((shrunk) => {
        const next: ShrunkCodes = { codes: shrunk.value, tupleContext: shrunk.context };
        return new fc.Value(this.parts.decode(shrunk.value), next);
      });
    }
  }
  evaluationArbitraryOf = EvaluationArbitrary;
  return EvaluationArbitrary;
}

/** Makes an `EvaluationArbitrary` over one config's codes. */
type EvaluationArbitraryClass = new (
  parts: ReturnType<typeof evaluationCodes>,
) => Arbitrary<MetricEvaluation>;

let evaluationArbitraryOf: EvaluationArbitraryClass | undefined;

/**
 * One evaluation checkpoint: a value for every metric every agent's rules read.
 * Drawn as one flat tuple of integer codes decoded to the nested shape (see
 * `EvaluationArbitrary`), rather than a record of records of mapped values:
 * each of those layers allocates its own fast-check value per draw.
 *
 * @example
 * ```ts
 * fc.sample(evaluationArbitrary(config, ranges), 1); // e.g. [{ PPO: { objective: 0.8 }, SAC: { objective: 0.12 } }]
 * ```
 */
export function evaluationArbitrary(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
): Arbitrary<MetricEvaluation> {
  const EvaluationArbitrary = evaluationArbitraryClass();
  return new EvaluationArbitrary(evaluationCodes(config, ranges));
}

/**
 * Sequences of `minLength` to `maxLength` evaluation checkpoints: a
 * fast-check array of {@link evaluationArbitrary} draws. Shrinks like any
 * fast-check array: shorter, then each value towards the low end.
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
): Arbitrary<MetricSequence> {
  const EvaluationArbitrary = evaluationArbitraryClass();
  return fastCheck().array(new EvaluationArbitrary(evaluationCodes(config, ranges)), length);
}

/** How a targeted sequence moves through a metric's range. */
export type TargetedPattern =
  | 'low'
  | 'high'
  | 'mid'
  | 'threshold'
  | 'rampUp'
  | 'rampDown'
  | 'rampShortOfThreshold';

/** Every targeted pattern, in the order they are tried. */
export const TARGETED_PATTERNS: readonly TargetedPattern[] = [
  'threshold',
  'low',
  'high',
  'mid',
  'rampUp',
  'rampDown',
  'rampShortOfThreshold',
];

/**
 * A hand-picked sequence of `length` checkpoints, the same pattern for every
 * agent and metric: constant at a threshold (the agent's own success threshold
 * if it is in the agent's range, else another agent's on the same metric, else
 * the midpoint), constant at either end or the
 * midpoint, a monotone ramp across the range, or a ramp towards the agent's
 * success threshold that stops short of it.
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
 * targetedExamples(config, ranges, 4).length; // 7
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
  // a ramp's steps snap to the grid: readable values (0.071, not 0.0714285714286)
  const fraction = length <= 1 ? 1 : Math.round((index / (length - 1)) * GRID_STEPS) / GRID_STEPS;
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
    case 'rampShortOfThreshold':
      return rampShortOfThreshold(config, agentName, range, index, length);
  }
}

/**
 * A ramp towards the agent's own success threshold that never reaches it: it
 * keeps improving without succeeding, so a cap can be reached in a range
 * wide enough to hold the threshold. Without a success rule on the metric, `rampUp`.
 */
function rampShortOfThreshold(
  config: TerminationConfig,
  agentName: string,
  range: MetricRange,
  index: number,
  length: number,
): number {
  const success = config.agents[agentName]?.success;
  const threshold = success?.metric === range.metric ? success.threshold : null;
  if (threshold === null || threshold < range.low || threshold > range.high) {
    return gridValue(range, length <= 1 ? 1 : index / (length - 1));
  }
  const start = success?.direction === 'less_equal' ? range.high : range.low;
  const fraction = Math.round((index / length) * GRID_STEPS) / GRID_STEPS;
  return roundValue(start + (threshold - start) * fraction);
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
