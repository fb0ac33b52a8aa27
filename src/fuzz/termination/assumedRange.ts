import type { TerminationConfig } from '../../domain/termination/config.js';
import type { MetricRange } from './metricRange.js';

/** The range a metric gets when the user gives none and no threshold lies outside it. */
export const DEFAULT_METRIC_RANGE = { low: 0, high: 1 } as const;

/**
 * The range assumed for a metric the user gave no `--metric` for: `0:1`,
 * widened to twice every success threshold (of `agentNames`) that lies outside
 * it, so that the rules' own numbers can be reached and avoided (a threshold
 * of 33 gives `0:66`, one of -25 gives `-50:1`). Marked `assumed`, with
 * `assumedFrom` naming the thresholds that widened it.
 *
 * @example
 * ```ts
 * assumedRange(config, 'objective', ['operator']); // operator: success objective ≥ 33
 * // { metric: 'objective', low: 0, high: 66, assumed: true,
 * //   assumedFrom: "twice operator's success threshold 33" }
 * ```
 */
export function assumedRange(
  config: TerminationConfig,
  metric: string,
  agentNames: readonly string[],
): MetricRange {
  let low: number = DEFAULT_METRIC_RANGE.low;
  let high: number = DEFAULT_METRIC_RANGE.high;
  const widening: string[] = [];
  for (const agentName of agentNames) {
    const success = config.agents[agentName]?.success;
    if (!success || success.metric !== metric) continue;
    const { threshold } = success;
    if (threshold >= DEFAULT_METRIC_RANGE.low && threshold <= DEFAULT_METRIC_RANGE.high) continue;
    low = Math.min(low, 2 * threshold);
    high = Math.max(high, 2 * threshold);
    widening.push(`${agentName}'s success threshold ${threshold}`);
  }
  return {
    metric,
    low,
    high,
    assumed: true,
    ...(widening.length > 0 ? { assumedFrom: `twice ${widening.join(' and ')}` } : {}),
  };
}
