import { isPlainObject } from '../shared/json.js';
import type { SweepObjective } from './types.js';

/**
 * The value of one objective at one evaluation checkpoint: the weighted sum,
 * over `objective.weights`, of each agent's `metrics[objective.metric]` in the
 * checkpoint's stored `outcomes`. Stored records are read, not trusted, so
 * anything that does not give a finite value is `null`, never an exception:
 * outcomes that are not a list, a weighted agent with no outcome, two outcomes
 * for one agent, a missing or non-finite metric, no weights at all, or a sum
 * that overflows.
 *
 * @example
 * ```ts
 * const outcomes = [
 *   { agentName: 'a', metrics: { objective: 6 } },
 *   { agentName: 'b', metrics: { objective: 2 } },
 * ];
 * objectiveAt(outcomes, { metric: 'objective', weights: { a: 0.5, b: 1 }, direction: 'maximize' }); // 5
 * objectiveAt(outcomes, { metric: 'objective', weights: { c: 1 }, direction: 'maximize' }); // null
 * ```
 */
export function objectiveAt(outcomes: unknown, objective: SweepObjective): number | null {
  if (!Array.isArray(outcomes)) return null;
  const agents = Object.entries(objective.weights);
  if (agents.length === 0) return null;
  let sum = 0;
  for (const [agentName, weight] of agents) {
    const value = metricOf(outcomes, agentName, objective.metric);
    if (value === null || !Number.isFinite(weight)) return null;
    sum += weight * value;
  }
  return Number.isFinite(sum) ? sum : null;
}

/** The agent's finite metric value in `outcomes`, or `null` (absent, non-finite, or ambiguous). */
function metricOf(outcomes: readonly unknown[], agentName: string, metric: string): number | null {
  const mine = outcomes.filter(
    (outcome) => isPlainObject(outcome) && outcome.agentName === agentName,
  );
  if (mine.length !== 1) return null;
  const metrics = (mine[0] as Record<string, unknown>).metrics;
  if (!isPlainObject(metrics) || !Object.hasOwn(metrics, metric)) return null;
  const value = metrics[metric];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
