import { applyCheckpoint } from '../domain/termination/checkpoint.js';
import type { TerminationConfig } from '../domain/termination/config.js';
import { createTerminationState } from '../domain/termination/state.js';
import type { CheckpointRecord } from '../ports/store/store.js';
import type { MetricPoint, SmoothedSeries } from './reportTypes.js';

/**
 * The series each agent's plateau rule reads: the smoothed value (the mean of
 * the last `window` valid values) after every applied checkpoint, and the best
 * the rule holds at the end: the smoothed value of the last checkpoint that
 * improved on the best by at least `min_delta`. The phase's checkpoints are
 * replayed through the domain's `applyCheckpoint`, so the numbers are the
 * rule's own (the ones the termination evidence quotes), not a second
 * implementation of them. A checkpoint the store marked rejected is skipped,
 * as it changed nothing; a replay that throws ends the series there.
 *
 * @example
 * ```ts
 * const series = plateauSeries(store.checkpoints(runId, 0), rules).get('operator');
 * series?.points.map((point) => point.value); // [null, 5.5, 9.5, 9.6]
 * series?.best; // { checkpointIndex: 2, afterEpisode: 9, value: 9.5 }
 * ```
 */
export function plateauSeries(
  checkpoints: readonly CheckpointRecord[],
  rules: TerminationConfig | null,
): Map<string, SmoothedSeries> {
  const series = new Map<string, { metric: string; window: number; points: MetricPoint[] }>();
  const best = new Map<string, SmoothedSeries['best']>();
  if (rules === null) return new Map();
  for (const agentName of rules.agentNames) {
    const plateau = rules.agents[agentName]?.plateau ?? null;
    if (plateau === null) continue;
    series.set(agentName, { metric: plateau.metric, window: plateau.window, points: [] });
    best.set(agentName, null);
  }
  let state = createTerminationState(rules);
  for (const checkpoint of checkpoints) {
    if (checkpoint.status === 'rejected') continue;
    let applied: ReturnType<typeof applyCheckpoint>;
    try {
      applied = applyCheckpoint(
        state,
        Array.isArray(checkpoint.outcomes) ? checkpoint.outcomes : [],
      );
    } catch {
      break;
    }
    state = applied.state;
    for (const agent of applied.decision.report.agents) {
      const entry = series.get(agent.agentName);
      if (entry === undefined) continue;
      const where = {
        checkpointIndex: checkpoint.checkpointIndex,
        afterEpisode: checkpoint.afterEpisode,
      };
      entry.points.push({ ...where, value: agent.smoothedValue });
      const held = best.get(agent.agentName) ?? null;
      // The best moves only when the rule counted an improvement, i.e. its bestMetric changed.
      if (agent.bestMetric !== null && (held === null || held.value !== agent.bestMetric)) {
        best.set(agent.agentName, { ...where, value: agent.bestMetric });
      }
    }
  }
  return new Map(
    [...series].map(([agentName, entry]) => [
      agentName,
      { ...entry, best: best.get(agentName) ?? null },
    ]),
  );
}
