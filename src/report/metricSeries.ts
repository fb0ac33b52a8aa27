import { isPlainObject } from '../domain/shared/json.js';
import type { TerminationConfig } from '../domain/termination/config.js';
import type { CheckpointRecord } from '../ports/store/store.js';
import { plateauSeries } from './plateauSeries.js';
import type { MetricPoint, MetricSeries } from './reportTypes.js';

/**
 * Each agent's metrics over a phase's checkpoints, one series per agent and
 * metric: agents in the order they first appear, and for each agent the metric
 * of its success rule first, then that of its plateau rule, then the others in
 * the order they first appear. Rejected checkpoints changed nothing
 * and are left out; a checkpoint without a finite value for a series is a gap
 * (`value: null`). The agent's success threshold comes with the series of its
 * success metric, and the best value is the highest, or the lowest when the
 * agent's rules ask for `less_equal` or `minimize` on that metric. The series
 * of a plateau rule's metric carries the smoothed values the rule reads (see
 * `plateauSeries`), and a metric with the same finite value at every one of
 * two or more checkpoints carries that value as `constant`.
 *
 * @example
 * ```ts
 * const [series] = metricSeries(store.checkpoints(runId, 0), rules);
 * series.threshold; // { value: 0.8, direction: 'greater_equal' }
 * series.points.map((point) => point.value); // [0.1, 0.5, 0.9, 0.95]
 * series.best; // { checkpointIndex: 3, afterEpisode: 12, value: 0.95 }
 * ```
 */
export function metricSeries(
  checkpoints: readonly CheckpointRecord[],
  rules: TerminationConfig | null,
): MetricSeries[] {
  const applied = checkpoints.filter((checkpoint) => checkpoint.status !== 'rejected');
  const keys = new Map<string, { agentName: string; metric: string }>();
  for (const checkpoint of applied) {
    for (const { agentName, metrics } of agentMetrics(checkpoint)) {
      for (const metric of Object.keys(metrics)) {
        keys.set(JSON.stringify([agentName, metric]), { agentName, metric });
      }
    }
  }
  const smoothedByAgent = plateauSeries(checkpoints, rules);
  return orderedByRules([...keys.values()], rules).map(({ agentName, metric }) => {
    const points: MetricPoint[] = applied.map((checkpoint) => ({
      checkpointIndex: checkpoint.checkpointIndex,
      afterEpisode: checkpoint.afterEpisode,
      value: metricValue(checkpoint, agentName, metric),
    }));
    const success = rules?.agents[agentName]?.success ?? null;
    const plateau = rules?.agents[agentName]?.plateau ?? null;
    const lowerIsBetter =
      (success?.metric === metric && success.direction === 'less_equal') ||
      (plateau?.metric === metric && plateau.direction === 'minimize');
    return {
      agentName,
      metric,
      points,
      threshold:
        success?.metric === metric
          ? { value: success.threshold, direction: success.direction }
          : null,
      best: bestPoint(points, lowerIsBetter),
      constant: constantValue(points),
      smoothed: plateau?.metric === metric ? (smoothedByAgent.get(agentName) ?? null) : null,
    };
  });
}

/** Per agent (in first-seen order): the success metric, the plateau metric, then the rest. */
function orderedByRules<T extends { agentName: string; metric: string }>(
  keys: readonly T[],
  rules: TerminationConfig | null,
): T[] {
  const agentOrder = [...new Set(keys.map((key) => key.agentName))];
  const rank = ({ agentName, metric }: T) => {
    const agentRules = rules?.agents[agentName];
    if (agentRules?.success?.metric === metric) return 0;
    if (agentRules?.plateau?.metric === metric) return 1;
    return 2;
  };
  return [...keys].sort(
    (left, right) =>
      agentOrder.indexOf(left.agentName) - agentOrder.indexOf(right.agentName) ||
      rank(left) - rank(right),
  );
}

function agentMetrics(
  checkpoint: CheckpointRecord,
): Array<{ agentName: string; metrics: Record<string, unknown> }> {
  if (!Array.isArray(checkpoint.outcomes)) return [];
  return checkpoint.outcomes.flatMap((outcome) =>
    isPlainObject(outcome) &&
    typeof outcome.agentName === 'string' &&
    isPlainObject(outcome.metrics)
      ? [{ agentName: outcome.agentName, metrics: outcome.metrics }]
      : [],
  );
}

function metricValue(
  checkpoint: CheckpointRecord,
  agentName: string,
  metric: string,
): number | null {
  const outcome = agentMetrics(checkpoint).find((entry) => entry.agentName === agentName);
  const value = outcome?.metrics[metric];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function bestPoint(points: readonly MetricPoint[], lowerIsBetter: boolean): MetricSeries['best'] {
  let best: MetricSeries['best'] = null;
  for (const { checkpointIndex, afterEpisode, value } of points) {
    if (value === null) continue;
    if (best === null || (lowerIsBetter ? value < best.value : value > best.value)) {
      best = { checkpointIndex, afterEpisode, value };
    }
  }
  return best;
}

function constantValue(points: readonly MetricPoint[]): number | null {
  const first = points[0]?.value ?? null;
  if (points.length < 2 || first === null) return null;
  return points.every((point) => point.value === first) ? first : null;
}
