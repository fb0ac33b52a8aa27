import { SweepDecisionError } from './errors.js';
import { medianPruned } from './medianRule.js';
import { paretoRanks } from './paretoRanks.js';
import { rankingFrom } from './rankTrials.js';
import { sortedRungEntries } from './rungEntries.js';
import { halvingPruned } from './successiveHalving.js';
import type { RungDecision, RungEntry, SweepObjective, SweepPruner } from './types.js';

/**
 * The pruner's decision at one rung, from the entries of every trial that
 * reached it. Synchronous: the sweep calls it once every trial that can reach
 * the rung has, so the decision is a function of the entries (as a set, their
 * order does not matter), never of which worker was faster.
 *
 * - `successive_halving`: keeps `max(1, ceil(n / eta))` of the `n` entries.
 *   One objective: the top of the ranking. Several: stops only trials another
 *   entry dominates (Pareto), at most `n - keep`, worst Pareto rank first,
 *   then higher index first.
 * - `median`: with at least `minTrials` entries, stops a trial strictly worse
 *   than the median of the values present (one objective), or dominated and
 *   worse than the median in every objective (several). `median` is filled.
 * - `none`: stops nothing.
 *
 * A rung where no entry has any value (every objective missing, e.g. a metric
 * no trial reports) stops nothing: there is no evidence to rank on.
 *
 * An entry that is not `prunable` (its trial already ended) is ranked and
 * counted but always kept. `kept` and `pruned` are sorted by trial index and
 * hold every entry exactly once. Throws `SweepDecisionError` on two entries
 * for one trial, a value count other than the objectives', a rung index
 * outside `pruner.rungs`, or a pruner setting that cannot decide (eta < 1).
 *
 * @example
 * ```ts
 * const objective = { metric: 'objective', weights: { operator: 1 }, direction: 'maximize' } as const;
 * decideRung({ kind: 'successive_halving', rungs: [3, 6], eta: 2 }, 0, [
 *   { trial: 0, values: [6.6], prunable: true },
 *   { trial: 1, values: [7.1], prunable: true },
 *   { trial: 2, values: [5.0], prunable: true },
 *   { trial: 3, values: [8.2], prunable: true },
 * ], [objective]);
 * // { rungIndex: 0, rung: 3, ranking: [3, 1, 0, 2], kept: [1, 3], pruned: [0, 2], median: null }
 * ```
 */
export function decideRung(
  pruner: SweepPruner,
  rungIndex: number,
  entries: readonly RungEntry[],
  objectives: readonly SweepObjective[],
): RungDecision {
  const rung = pruner.rungs[rungIndex];
  if (!Number.isInteger(rungIndex) || rung === undefined) {
    throw new SweepDecisionError(
      `rung index ${rungIndex} is not one of the pruner's ${pruner.rungs.length} rungs`,
    );
  }
  const sorted = sortedRungEntries(entries, objectives);
  const ranks = paretoRanks(sorted, objectives);
  const ranking = rankingFrom(ranks);
  const decided = prunedBy(pruner, sorted, ranking, ranks, objectives);
  // with no value at all there is no evidence to rank on: an order by index alone prunes no one
  const pruned = sorted.some(hasValue) ? decided.pruned : [];
  const { median } = decided;
  const stopped = new Set(pruned);
  return {
    rungIndex,
    rung,
    ranking,
    kept: sorted.filter((entry) => !stopped.has(entry.trial)).map((entry) => entry.trial),
    pruned: sorted.filter((entry) => stopped.has(entry.trial)).map((entry) => entry.trial),
    median,
  };
}

function prunedBy(
  pruner: SweepPruner,
  sorted: readonly RungEntry[],
  ranking: readonly number[],
  ranks: ReadonlyMap<number, number>,
  objectives: readonly SweepObjective[],
): { pruned: readonly number[]; median: (number | null)[] | null } {
  switch (pruner.kind) {
    case 'successive_halving':
      if (!(pruner.eta >= 1) || !Number.isFinite(pruner.eta)) {
        throw new SweepDecisionError(`successive halving needs eta ≥ 1, got ${pruner.eta}`);
      }
      return {
        pruned: halvingPruned(sorted, ranking, ranks, pruner.eta, objectives.length),
        median: null,
      };
    case 'median':
      if (Number.isNaN(pruner.minTrials)) {
        throw new SweepDecisionError('the median rule needs a number for minTrials, got NaN');
      }
      return medianPruned(sorted, ranks, objectives, pruner.minTrials);
    case 'none':
      return { pruned: [], median: null };
  }
}

function hasValue(entry: RungEntry): boolean {
  return entry.values.some((value) => value !== null);
}
