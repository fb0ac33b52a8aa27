import { compareValues } from './compareValues.js';
import { medianOf } from './medianOf.js';
import type { RungEntry, SweepObjective } from './types.js';

/**
 * The median rule at a rung: the median per objective of the values present,
 * and the trials it stops. A rung of fewer than `minTrials` entries stops
 * none. Otherwise one objective: every prunable trial strictly worse than the
 * median (a missing value is worse than any). Several: a prunable trial some
 * other entry dominates (Pareto rank > 0) and strictly worse than the median
 * in every objective.
 *
 * @example
 * ```ts
 * // values [5], [3], [3], [1], maximize, minTrials 3: median 3
 * medianPruned(entries, new Map(), [objective], 3); // { median: [3], pruned: [3] }
 * ```
 */
export function medianPruned(
  entries: readonly RungEntry[],
  ranks: ReadonlyMap<number, number>,
  objectives: readonly SweepObjective[],
  minTrials: number,
): { median: (number | null)[]; pruned: number[] } {
  const median = objectives.map((_, i) =>
    medianOf(entries.map((entry) => entry.values[i] ?? null)),
  );
  if (entries.length < minTrials) return { median, pruned: [] };
  const belowEveryMedian = (entry: RungEntry) =>
    objectives.every(
      (objective, i) => compareValues(entry.values[i] ?? null, median[i]!, objective.direction) > 0,
    );
  const dominated = (entry: RungEntry) => objectives.length === 1 || ranks.get(entry.trial)! > 0;
  const pruned = entries
    .filter((entry) => entry.prunable && belowEveryMedian(entry) && dominated(entry))
    .map((entry) => entry.trial);
  return { median, pruned };
}
