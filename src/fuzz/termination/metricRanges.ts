import type { TerminationConfig } from '../../domain/termination/config.js';
import { assumedRange } from './assumedRange.js';
import { FuzzInputError } from './errors.js';
import type { MetricRange } from './metricRange.js';
import { metricsByAgent } from './sequences.js';

const rangePattern = /^([^=]+)=([^:]+):(.+)$/;

/**
 * Parse one `--metric NAME=LOW:HIGH` option (finite numbers, `LOW < HIGH`).
 * `NAME` is a metric, or `AGENT.METRIC` for one agent's range: which one is
 * decided against the rules by {@link resolveMetricRanges}.
 *
 * @throws FuzzInputError naming the option and what was expected.
 * @example
 * ```ts
 * parseMetricRange('objective=0:1'); // { metric: 'objective', low: 0, high: 1, assumed: false }
 * parseMetricRange('loss=-2.5:1e3'); // { metric: 'loss', low: -2.5, high: 1000, assumed: false }
 * parseMetricRange('SAC.objective=0:2'); // { metric: 'SAC.objective', low: 0, high: 2, assumed: false }
 * ```
 */
export function parseMetricRange(text: string): MetricRange {
  const match = rangePattern.exec(text.trim());
  if (match === null) {
    throw new FuzzInputError(`--metric ${text}: expected NAME=LOW:HIGH, for example objective=0:1`);
  }
  const metric = match[1]!.trim();
  const low = parseBound(text, 'low', match[2]!);
  const high = parseBound(text, 'high', match[3]!);
  if (!(low < high)) {
    throw new FuzzInputError(
      `--metric ${text}: the low end ${low} must be below the high end ${high}`,
    );
  }
  return { metric, low, high, assumed: false };
}

function parseBound(text: string, which: 'low' | 'high', raw: string): number {
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value)) {
    throw new FuzzInputError(
      `--metric ${text}: the ${which} end must be a finite number, got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

/**
 * The metrics a rule set reads (success and plateau metrics of every agent),
 * sorted.
 *
 * @example
 * ```ts
 * metricsReadBy(parseTerminationConfig(rules)); // ['objective']
 * ```
 */
export function metricsReadBy(config: TerminationConfig): string[] {
  const names = new Set<string>();
  for (const agentName of config.agentNames) {
    const rules = config.agents[agentName];
    if (rules?.success) names.add(rules.success.metric);
    if (rules?.plateau) names.add(rules.plateau.metric);
  }
  return [...names].sort();
}

/**
 * One range per metric the rules read: the user's, or when none was given an
 * assumed one (`0:1`, widened to twice a success threshold outside it, see
 * {@link assumedRange}); then the per-agent ranges (`AGENT.METRIC`,
 * which override the metric's range for that agent), in the rules' agent
 * order. An assumed range that every agent reading the metric overrides is
 * left out. A name that is a metric the rules read is that metric, even with a
 * dot in it.
 *
 * @throws FuzzInputError for a range of a metric no rule reads, an agent the
 *   rules do not have, a metric no rule of that agent reads, or a range given
 *   twice.
 * @example
 * ```ts
 * resolveMetricRanges(config, []); // [{ metric: 'objective', low: 0, high: 1, assumed: true }]
 * resolveMetricRanges(config, [parseMetricRange('objective=0:5')]);
 * // [{ metric: 'objective', low: 0, high: 5, assumed: false }]
 * resolveMetricRanges(config, [parseMetricRange('SAC.objective=0:2')]); // agents PPO and SAC
 * // [{ metric: 'objective', low: 0, high: 1, assumed: true },
 * //  { metric: 'objective', agent: 'SAC', low: 0, high: 2, assumed: false }]
 * ```
 */
export function resolveMetricRanges(
  config: TerminationConfig,
  given: readonly MetricRange[],
): MetricRange[] {
  const read = metricsReadBy(config);
  const readByAgent = metricsByAgent(config);
  const byMetric = new Map<string, MetricRange>();
  const byAgentMetric = new Map<string, MetricRange>();
  for (const range of given) {
    const target = rangeTarget(range, read, readByAgent);
    const resolved: MetricRange = { ...range, ...target };
    const key = target.agent === undefined ? target.metric : `${target.agent}.${target.metric}`;
    const seen = target.agent === undefined ? byMetric : byAgentMetric;
    if (seen.has(key)) throw new FuzzInputError(`--metric ${key}: given more than once`);
    seen.set(key, resolved);
  }
  // the agents that read a metric without a range of their own
  const sharing = (metric: string): string[] =>
    config.agentNames.filter(
      (agentName) =>
        readByAgent[agentName]?.includes(metric) && !byAgentMetric.has(`${agentName}.${metric}`),
    );
  const metricRanges = read.flatMap((metric): MetricRange[] => {
    const range = byMetric.get(metric);
    if (range) return [range];
    const agentNames = sharing(metric);
    return agentNames.length === 0 ? [] : [assumedRange(config, metric, agentNames)];
  });
  const agentRanges = config.agentNames.flatMap((agentName) =>
    (readByAgent[agentName] ?? []).flatMap((metric) => {
      const range = byAgentMetric.get(`${agentName}.${metric}`);
      return range ? [range] : [];
    }),
  );
  return [...metricRanges, ...agentRanges];
}

/** Which metric (and agent) a given range is for. */
function rangeTarget(
  range: MetricRange,
  read: readonly string[],
  readByAgent: Readonly<Record<string, readonly string[]>>,
): { metric: string; agent?: string } {
  if (range.agent !== undefined) return agentTarget(range.agent, range.metric, readByAgent);
  const name = range.metric;
  if (read.includes(name)) return { metric: name };
  for (let dot = name.indexOf('.'); dot > 0; dot = name.indexOf('.', dot + 1)) {
    const agent = name.slice(0, dot);
    if (Object.hasOwn(readByAgent, agent)) {
      return agentTarget(agent, name.slice(dot + 1), readByAgent);
    }
  }
  const agents = Object.keys(readByAgent).join(', ');
  if (name.includes('.')) {
    const agent = name.slice(0, name.indexOf('.'));
    throw new FuzzInputError(
      `--metric ${name}: ${JSON.stringify(agent)} is not an agent of the rules (agents: ${agents}), and no rule reads a metric ${JSON.stringify(name)}`,
    );
  }
  throw new FuzzInputError(
    `--metric ${name}: no rule reads this metric; the rules read ${read.join(', ')}`,
  );
}

function agentTarget(
  agent: string,
  metric: string,
  readByAgent: Readonly<Record<string, readonly string[]>>,
): { metric: string; agent: string } {
  const metrics = readByAgent[agent];
  if (metrics === undefined) {
    throw new FuzzInputError(
      `--metric ${agent}.${metric}: ${JSON.stringify(agent)} is not an agent of the rules (agents: ${Object.keys(readByAgent).join(', ')})`,
    );
  }
  if (!metrics.includes(metric)) {
    throw new FuzzInputError(
      `--metric ${agent}.${metric}: no rule of agent ${agent} reads ${metric}; its rules read ${metrics.join(', ') || 'no metric'}`,
    );
  }
  return { metric, agent };
}

/**
 * The range of `metric` for `agent`: the agent's own range if it has one,
 * else the metric's.
 *
 * @example
 * ```ts
 * rangeOf(ranges, 'objective', 'PPO'); // { metric: 'objective', low: 0, high: 1, assumed: true }
 * rangeOf(ranges, 'objective', 'SAC'); // { metric: 'objective', agent: 'SAC', low: 0, high: 2, assumed: false }
 * ```
 */
export function rangeOf(
  ranges: readonly MetricRange[],
  metric: string,
  agent: string,
): MetricRange {
  const range =
    ranges.find((candidate) => candidate.metric === metric && candidate.agent === agent) ??
    ranges.find((candidate) => candidate.metric === metric && candidate.agent === undefined);
  if (range === undefined) {
    throw new FuzzInputError(`no range for metric ${metric} of agent ${agent}`);
  }
  return range;
}

/**
 * How a range is named on the command line: `objective`, or `SAC.objective`
 * for one agent's.
 *
 * @example
 * ```ts
 * rangeName({ metric: 'objective', agent: 'SAC', low: 0, high: 2, assumed: false }); // 'SAC.objective'
 * ```
 */
export function rangeName(range: MetricRange): string {
  return range.agent === undefined ? range.metric : `${range.agent}.${range.metric}`;
}
