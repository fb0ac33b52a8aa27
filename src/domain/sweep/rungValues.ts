import { SweepDecisionError } from './errors.js';
import { objectiveAt } from './objectiveAt.js';
import type { SweepObjective } from './types.js';

/**
 * A trial's objective values at a rung, from its run's evaluation checkpoints
 * (every phase, in (phaseIndex, checkpointIndex) order; which ones count is
 * the caller's choice). `null` when the run has fewer than `rung` checkpoints:
 * it has not reached the rung. Otherwise, per objective, the mean of the
 * objective over checkpoints `rung - window + 1 .. rung` (1-based; the window
 * starts no earlier than checkpoint 1), or `null` if any of those has no value.
 * Successive halving uses `window` 1: the rung's own checkpoint.
 *
 * @example
 * ```ts
 * const at = (value: number) => ({ outcomes: [{ agentName: 'a', metrics: { m: value } }] });
 * const objective = { metric: 'm', weights: { a: 1 }, direction: 'maximize' } as const;
 * rungValues([at(1), at(2), at(6)], 3, [objective], 2); // [4]: the mean of checkpoints 2 and 3
 * rungValues([at(1), at(2)], 3, [objective], 2); // null: rung 3 not reached
 * ```
 */
export function rungValues(
  checkpoints: readonly { readonly outcomes: unknown }[],
  rung: number,
  objectives: readonly SweepObjective[],
  window: number,
): (number | null)[] | null {
  if (!Number.isInteger(rung) || rung < 1) {
    throw new SweepDecisionError(
      `rung must be a positive whole number of checkpoints, got ${rung}`,
    );
  }
  if (!Number.isInteger(window) || window < 1) {
    throw new SweepDecisionError(`window must be a positive whole number, got ${window}`);
  }
  if (checkpoints.length < rung) return null;
  const counted = checkpoints.slice(Math.max(0, rung - window), rung);
  return objectives.map((objective) =>
    meanOf(counted.map((c) => objectiveAt(c.outcomes, objective))),
  );
}

/** The mean of `values`, or `null` if one is missing (or the sum overflows). */
function meanOf(values: readonly (number | null)[]): number | null {
  let sum = 0;
  for (const value of values) {
    if (value === null) return null;
    sum += value;
  }
  const mean = sum / values.length;
  return Number.isFinite(mean) ? mean : null;
}
