import { objectiveAt } from './objectiveAt.js';
import type { TrialEvidence } from './progress.js';
import { rungValues } from './rungValues.js';
import type { SweepObjective, SweepPruner } from './types.js';

/** How `best` compares: better first by direction, a missing value worst. */
function better(a: number | null, b: number | null, objective: SweepObjective): boolean {
  if (a === null) return false;
  if (b === null) return true;
  return objective.direction === 'maximize' ? a > b : a < b;
}

/**
 * What a trial's stored checkpoints (all phases, in order) are worth to its
 * sweep: its values at every rung it reached (smoothed over the median
 * rule's window; successive halving reads each rung's checkpoint alone), at
 * its last checkpoint, and its best checkpoint by the first objective.
 *
 * @example
 * ```ts
 * trialEvidence(store.checkpoints(runId), spec.pruner, spec.objectives);
 * // { checkpoints: 3, rungValues: [[9.26]], lastValues: [9.26], best: { checkpoint: 3, values: [9.26] } }
 * ```
 */
export function trialEvidence(
  checkpoints: readonly { readonly outcomes: unknown }[],
  pruner: SweepPruner,
  objectives: readonly SweepObjective[],
): TrialEvidence {
  const window = pruner.kind === 'median' ? pruner.window : 1;
  const atRungs: (number | null)[][] = [];
  for (const rung of pruner.rungs) {
    const values = rungValues(checkpoints, rung, objectives, window);
    if (values === null) break;
    atRungs.push([...values]);
  }
  const valuesAt = (index: number): (number | null)[] =>
    objectives.map((objective) => objectiveAt(checkpoints[index]?.outcomes, objective));
  const first = objectives[0];
  let best: TrialEvidence['best'] = null;
  for (let index = 0; index < checkpoints.length; index++) {
    const values = valuesAt(index);
    if (
      best === null ||
      (first !== undefined && better(values[0] ?? null, best.values[0] ?? null, first))
    ) {
      best = { checkpoint: index + 1, values };
    }
  }
  return {
    checkpoints: checkpoints.length,
    rungValues: atRungs,
    lastValues: checkpoints.length === 0 ? null : valuesAt(checkpoints.length - 1),
    best,
  };
}
