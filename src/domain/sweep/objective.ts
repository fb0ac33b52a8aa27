import type { SweepObjective } from './types.js';

/**
 * An objective's value at one evaluation checkpoint: the weighted sum over
 * its agents of their metric's value in the checkpoint's outcomes. `null`
 * when a weighted agent has no finite value there (or the outcomes are not a
 * list of outcomes); never throws.
 *
 * @example
 * ```ts
 * objectiveAt(
 *   [{ agentName: 'operator', evaluationId: 'train:1', evaluationEpisode: 1, metrics: { objective: 6.5 } }],
 *   { metric: 'objective', weights: { operator: 1 }, direction: 'maximize' },
 * ); // 6.5
 * ```
 */
export function objectiveAt(outcomes: unknown, objective: SweepObjective): number | null {
  if (!Array.isArray(outcomes)) return null;
  let total = 0;
  for (const [agent, weight] of Object.entries(objective.weights)) {
    const outcome = outcomes.find(
      (each): each is { metrics?: unknown } =>
        typeof each === 'object' &&
        each !== null &&
        (each as { agentName?: unknown }).agentName === agent,
    );
    const metrics = outcome?.metrics;
    const value =
      typeof metrics === 'object' && metrics !== null
        ? (metrics as Record<string, unknown>)[objective.metric]
        : undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) return null;
    total += weight * value;
  }
  return total;
}
