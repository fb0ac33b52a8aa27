import { dominates } from './dominates.js';
import { sortedRungEntries } from './rungEntries.js';
import type { RungEntry, SweepObjective } from './types.js';

/**
 * Non-dominated sorting of a rung's entries: each trial's Pareto rank, 0 for
 * the trials no other entry dominates, 1 for those only rank-0 trials
 * dominate, and so on. With one objective the fronts are the distinct values,
 * best first. Throws `SweepDecisionError` on entries `decideRung` refuses.
 *
 * @example
 * ```ts
 * const max = { metric: 'm', weights: { a: 1 }, direction: 'maximize' } as const;
 * paretoRanks([
 *   { trial: 0, values: [1, 5], prunable: true },
 *   { trial: 1, values: [5, 1], prunable: true },
 *   { trial: 2, values: [1, 1], prunable: true },
 * ], [max, max]);
 * // Map { 0 => 0, 1 => 0, 2 => 1 }
 * ```
 */
export function paretoRanks(
  entries: readonly RungEntry[],
  objectives: readonly SweepObjective[],
): Map<number, number> {
  const sorted = sortedRungEntries(entries, objectives);
  // dominatedBy[i]: how many not-yet-ranked entries dominate entry i.
  const dominatedBy = sorted.map(() => 0);
  const beats = sorted.map(() => [] as number[]);
  for (const [i, a] of sorted.entries()) {
    for (const [j, b] of sorted.entries()) {
      if (i !== j && dominates(a.values, b.values, objectives)) {
        beats[i]!.push(j);
        dominatedBy[j]! += 1;
      }
    }
  }
  const ranks = new Map<number, number>();
  let front = sorted.flatMap((_, i) => (dominatedBy[i] === 0 ? [i] : []));
  for (let rank = 0; front.length > 0; rank += 1) {
    const next: number[] = [];
    for (const i of front) {
      ranks.set(sorted[i]!.trial, rank);
      for (const j of beats[i]!) {
        dominatedBy[j]! -= 1;
        if (dominatedBy[j] === 0) next.push(j);
      }
    }
    front = next;
  }
  return ranks;
}
