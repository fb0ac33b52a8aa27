import { compareValues } from './compareValues.js';
import { SweepDecisionError } from './errors.js';
import type { SweepObjective } from './types.js';

/**
 * Whether values `a` Pareto-dominate values `b` (one per objective): `a` is
 * at least as good in every objective and better in one. Missing values:
 * values with none missing dominate any with one missing; between two with
 * some missing, a missing value is worse than any value. This is a strict
 * partial order (never `a` over `a`, transitive), so it sorts into fronts.
 * With one objective it is "`a` is better".
 *
 * @example
 * ```ts
 * const max = { metric: 'm', weights: { a: 1 }, direction: 'maximize' } as const;
 * const min = { ...max, direction: 'minimize' } as const;
 * dominates([3, 1], [2, 1], [max, min]); // true
 * dominates([3, 1], [2, 0], [max, min]); // false: worse in the second
 * dominates([0, 9], [5, null], [max, min]); // true: complete beats incomplete
 * ```
 */
export function dominates(
  a: readonly (number | null)[],
  b: readonly (number | null)[],
  objectives: readonly SweepObjective[],
): boolean {
  if (a.length !== objectives.length || b.length !== objectives.length) {
    throw new SweepDecisionError(
      `dominance compares one value per objective (${objectives.length}), got ${a.length} and ${b.length}`,
    );
  }
  const aComplete = !a.includes(null);
  const bComplete = !b.includes(null);
  if (aComplete !== bComplete) return aComplete;
  let better = false;
  for (const [i, objective] of objectives.entries()) {
    const order = compareValues(a[i] ?? null, b[i] ?? null, objective.direction);
    if (order > 0) return false;
    if (order < 0) better = true;
  }
  return better;
}
