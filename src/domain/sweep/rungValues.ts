import { objectiveAt } from './objective.js';
import type { SweepObjective } from './types.js';

/**
 * A trial's objective values at a rung of `rung` checkpoints: per objective,
 * the mean over the last `window` checkpoints ending at the rung's (a window
 * of 1 reads the rung's checkpoint alone); `null` for an objective when one
 * of those values is missing. `null` when the trial has fewer checkpoints
 * than the rung.
 *
 * @example
 * ```ts
 * rungValues(store.checkpoints(runId), 3, [objective], 2); // [9.36] (checkpoints 2 and 3)
 * ```
 */
export function rungValues(
  checkpoints: readonly { readonly outcomes: unknown }[],
  rung: number,
  objectives: readonly SweepObjective[],
  window: number,
): (number | null)[] | null {
  if (checkpoints.length < rung || rung < 1) return null;
  const span = checkpoints.slice(Math.max(0, rung - Math.max(1, window)), rung);
  return objectives.map((objective) => {
    let sum = 0;
    for (const checkpoint of span) {
      const value = objectiveAt(checkpoint.outcomes, objective);
      if (value === null) return null;
      sum += value;
    }
    return sum / span.length;
  });
}
