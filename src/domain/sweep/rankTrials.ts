import { paretoRanks } from './paretoRanks.js';
import type { RungEntry, SweepObjective } from './types.js';

/**
 * The trials of a rung, best first. One objective: by value in its direction,
 * a missing value last. Several: by Pareto rank (non-dominated sorting, see
 * `dominates`; a trial missing a value is dominated by any trial with all
 * of them). Ties by lower trial index first, so the ranking is a function of
 * the entries, never of their order. Throws `SweepDecisionError` on two
 * entries for one trial or a value count other than the objectives'.
 *
 * @example
 * ```ts
 * const min = { metric: 'loss', weights: { a: 1 }, direction: 'minimize' } as const;
 * rankTrials([
 *   { trial: 0, values: [0.5], prunable: true },
 *   { trial: 1, values: [null], prunable: true },
 *   { trial: 2, values: [0.2], prunable: true },
 *   { trial: 3, values: [0.5], prunable: true },
 * ], [min]);
 * // [2, 0, 3, 1]
 * ```
 */
export function rankTrials(
  entries: readonly RungEntry[],
  objectives: readonly SweepObjective[],
): number[] {
  return rankingFrom(paretoRanks(entries, objectives));
}

/** Trials best first from their Pareto ranks, ties by lower trial index. */
export function rankingFrom(ranks: ReadonlyMap<number, number>): number[] {
  return [...ranks.keys()].sort((a, b) => ranks.get(a)! - ranks.get(b)! || a - b);
}
