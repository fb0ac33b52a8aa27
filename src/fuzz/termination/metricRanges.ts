import type { TerminationConfig } from '../../domain/termination/config.js';
import { FuzzInputError } from './errors.js';

/** The closed interval a metric's values are drawn from. */
export interface MetricRange {
  readonly metric: string;
  readonly low: number;
  readonly high: number;
  /** `true` when the user gave no range and the default `0:1` is used. */
  readonly assumed: boolean;
}

/** The range used for a metric the user gave no `--metric` for. */
export const DEFAULT_METRIC_RANGE = { low: 0, high: 1 } as const;

const rangePattern = /^([^=]+)=([^:]+):(.+)$/;

/**
 * Parse one `--metric NAME=LOW:HIGH` option (finite numbers, `LOW < HIGH`).
 *
 * @throws FuzzInputError naming the option and what was expected.
 * @example
 * ```ts
 * parseMetricRange('objective=0:1'); // { metric: 'objective', low: 0, high: 1, assumed: false }
 * parseMetricRange('loss=-2.5:1e3'); // { metric: 'loss', low: -2.5, high: 1000, assumed: false }
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
 * One range per metric the rules read: the user's, or `0:1` (marked
 * `assumed`) when none was given.
 *
 * @throws FuzzInputError for a range of a metric no rule reads, or a metric
 *   given twice.
 * @example
 * ```ts
 * resolveMetricRanges(config, []); // [{ metric: 'objective', low: 0, high: 1, assumed: true }]
 * resolveMetricRanges(config, [parseMetricRange('objective=0:5')]);
 * // [{ metric: 'objective', low: 0, high: 5, assumed: false }]
 * ```
 */
export function resolveMetricRanges(
  config: TerminationConfig,
  given: readonly MetricRange[],
): MetricRange[] {
  const read = metricsReadBy(config);
  const byMetric = new Map<string, MetricRange>();
  for (const range of given) {
    if (!read.includes(range.metric)) {
      throw new FuzzInputError(
        `--metric ${range.metric}: no rule reads this metric; the rules read ${read.join(', ')}`,
      );
    }
    if (byMetric.has(range.metric)) {
      throw new FuzzInputError(`--metric ${range.metric}: given more than once`);
    }
    byMetric.set(range.metric, range);
  }
  return read.map(
    (metric) =>
      byMetric.get(metric) ?? {
        metric,
        low: DEFAULT_METRIC_RANGE.low,
        high: DEFAULT_METRIC_RANGE.high,
        assumed: true,
      },
  );
}

/**
 * The range of `metric` among `ranges`.
 *
 * @example
 * ```ts
 * rangeOf(ranges, 'objective'); // { metric: 'objective', low: 0, high: 1, assumed: true }
 * ```
 */
export function rangeOf(ranges: readonly MetricRange[], metric: string): MetricRange {
  const range = ranges.find((candidate) => candidate.metric === metric);
  if (range === undefined) throw new FuzzInputError(`no range for metric ${metric}`);
  return range;
}
