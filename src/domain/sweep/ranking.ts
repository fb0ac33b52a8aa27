import type { RungEntry, SweepObjective } from './types.js';

/** Whether `a` is better than `b` in one objective (a missing value is worst; equal is not better). */
function betterIn(a: number | null, b: number | null, objective: SweepObjective): boolean {
  if (a === null) return false;
  if (b === null) return true;
  return objective.direction === 'maximize' ? a > b : a < b;
}

/**
 * Whether `a` dominates `b` (Pareto): at least as good in every objective and
 * better in one. A missing value is worse than any value.
 *
 * @example
 * ```ts
 * dominates([2, 1], [1, 1], [maximize, maximize]); // true
 * dominates([2, 0], [1, 1], [maximize, maximize]); // false
 * ```
 */
export function dominates(
  a: readonly (number | null)[],
  b: readonly (number | null)[],
  objectives: readonly SweepObjective[],
): boolean {
  let strictly = false;
  for (const [position, objective] of objectives.entries()) {
    const mine = a[position] ?? null;
    const theirs = b[position] ?? null;
    if (betterIn(theirs, mine, objective)) return false;
    if (betterIn(mine, theirs, objective)) strictly = true;
  }
  return strictly;
}

/**
 * The Pareto rank of each entry (0: dominated by none; 1: dominated only by
 * rank 0; …), by trial.
 */
export function paretoRanks(
  entries: readonly RungEntry[],
  objectives: readonly SweepObjective[],
): Map<number, number> {
  const ranks = new Map<number, number>();
  let left = [...entries];
  for (let rank = 0; left.length > 0; rank++) {
    const front = left.filter(
      (entry) =>
        !left.some((other) => other !== entry && dominates(other.values, entry.values, objectives)),
    );
    for (const entry of front) ranks.set(entry.trial, rank);
    left = left.filter((entry) => !front.includes(entry));
  }
  return ranks;
}

/**
 * The trials of a rung, best first: by the objective's value and direction
 * (a missing value last) with one objective, by Pareto rank with several;
 * ties by the lower trial index.
 *
 * @example
 * ```ts
 * rankTrials([{ trial: 0, values: [1], prunable: true }, { trial: 1, values: [3], prunable: true }], [maximize]);
 * // [1, 0]
 * ```
 */
export function rankTrials(
  entries: readonly RungEntry[],
  objectives: readonly SweepObjective[],
): number[] {
  const [only] = objectives;
  if (objectives.length === 1 && only !== undefined) {
    return [...entries]
      .sort((a, b) => {
        const x = a.values[0] ?? null;
        const y = b.values[0] ?? null;
        if (betterIn(x, y, only)) return -1;
        if (betterIn(y, x, only)) return 1;
        return a.trial - b.trial;
      })
      .map((entry) => entry.trial);
  }
  const ranks = paretoRanks(entries, objectives);
  return [...entries]
    .sort((a, b) => (ranks.get(a.trial) ?? 0) - (ranks.get(b.trial) ?? 0) || a.trial - b.trial)
    .map((entry) => entry.trial);
}
