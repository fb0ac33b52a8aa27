import { SweepDecisionError } from './errors.js';
import { dominates, paretoRanks, rankTrials } from './ranking.js';
import type { RungDecision, RungEntry, SweepObjective, SweepPruner } from './types.js';

/** The median of the values present, `null` when none is (the mean of the two middle ones for an even count). */
function median(values: readonly (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  if (present.length === 0) return null;
  const middle = Math.floor(present.length / 2);
  return present.length % 2 === 1
    ? (present[middle] as number)
    : ((present[middle - 1] as number) + (present[middle] as number)) / 2;
}

/** Strictly worse than `reference` in one objective (a missing value is worse than any). */
function worseThan(
  value: number | null,
  reference: number | null,
  objective: SweepObjective,
): boolean {
  if (reference === null) return false;
  if (value === null) return true;
  return objective.direction === 'maximize' ? value < reference : value > reference;
}

function checkEntries(entries: readonly RungEntry[], objectives: readonly SweepObjective[]): void {
  const seen = new Set<number>();
  for (const entry of entries) {
    if (seen.has(entry.trial))
      throw new SweepDecisionError(`trial ${entry.trial} is twice at the rung`);
    seen.add(entry.trial);
    if (entry.values.length !== objectives.length) {
      throw new SweepDecisionError(
        `trial ${entry.trial} has ${entry.values.length} values at the rung, for ${objectives.length} objectives`,
      );
    }
  }
}

/**
 * Decide one rung of a sweep from the trials that reached it, whatever order
 * they are given in (ties by trial index):
 * - successive halving keeps the best max(1, ⌈n/η⌉) of the n trials; with
 *   several objectives it prunes only trials another trial dominates there
 *   (at most n − keep of them, the worst Pareto rank first, then the higher index);
 * - the median rule prunes a trial strictly worse than the rung's median
 *   (with several objectives: dominated, and worse than the median in every
 *   objective), once at least `minTrials` reached the rung;
 * - `none` prunes nothing.
 * An entry that is not `prunable` (its trial already completed) is ranked and
 * counted, never pruned.
 *
 * @throws SweepDecisionError for a trial given twice or a values list of the wrong length.
 * @example
 * ```ts
 * decideRung({ kind: 'successive_halving', rungs: [3], eta: 2 }, 0, entries, [objective]);
 * // { rungIndex: 0, rung: 3, ranking: [2, 0, 3, 1], kept: [0, 2], pruned: [1, 3], median: null }
 * ```
 */
export function decideRung(
  pruner: SweepPruner,
  rungIndex: number,
  entries: readonly RungEntry[],
  objectives: readonly SweepObjective[],
): RungDecision {
  checkEntries(entries, objectives);
  const rung = pruner.rungs[rungIndex];
  if (rung === undefined) throw new SweepDecisionError(`the pruner has no rung ${rungIndex}`);
  const ranking = rankTrials(entries, objectives);
  const prunable = new Set(entries.filter((entry) => entry.prunable).map((entry) => entry.trial));
  const byTrial = new Map(entries.map((entry) => [entry.trial, entry]));
  let pruned: number[] = [];
  let medians: (number | null)[] | null = null;
  if (pruner.kind === 'successive_halving') {
    const keep = Math.max(1, Math.ceil(entries.length / pruner.eta));
    if (objectives.length === 1) {
      pruned = ranking.slice(keep).filter((trial) => prunable.has(trial));
    } else {
      const ranks = paretoRanks(entries, objectives);
      const dominated = entries.filter(
        (entry) =>
          prunable.has(entry.trial) &&
          entries.some(
            (other) => other !== entry && dominates(other.values, entry.values, objectives),
          ),
      );
      pruned = dominated
        .sort((a, b) => (ranks.get(b.trial) ?? 0) - (ranks.get(a.trial) ?? 0) || b.trial - a.trial)
        .slice(0, entries.length - keep)
        .map((entry) => entry.trial);
    }
  } else if (pruner.kind === 'median') {
    medians = objectives.map((_, position) =>
      median(entries.map((entry) => entry.values[position] ?? null)),
    );
    if (entries.length >= pruner.minTrials) {
      pruned = entries
        .filter((entry) => {
          if (!prunable.has(entry.trial)) return false;
          const belowEvery = objectives.every((objective, position) =>
            worseThan(entry.values[position] ?? null, medians?.[position] ?? null, objective),
          );
          if (objectives.length === 1) return belowEvery;
          return (
            belowEvery &&
            entries.some(
              (other) => other !== entry && dominates(other.values, entry.values, objectives),
            )
          );
        })
        .map((entry) => entry.trial);
    }
  }
  const prunedSet = new Set(pruned);
  const ascending = (a: number, b: number) => a - b;
  return {
    rungIndex,
    rung,
    ranking,
    kept: [...byTrial.keys()].filter((trial) => !prunedSet.has(trial)).sort(ascending),
    pruned: [...prunedSet].sort(ascending),
    median: medians,
  };
}
