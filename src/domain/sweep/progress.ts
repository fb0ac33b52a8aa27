import { decideRung } from './decideRung.js';
import type { RungDecision, RungEntry, SweepPruner, SweepSpec, TrialParameters } from './types.js';

/**
 * Where one trial stands: `pending` (no run yet), `running`, `held` at its
 * rung (waiting for the rung's decision), or ended (`completed`, `pruned` at a
 * rung, `failed`).
 */
export type TrialStatus = 'pending' | 'running' | 'held' | 'completed' | 'pruned' | 'failed';

/** What the records say a trial's checkpoints were worth, as far as it got. */
export interface TrialEvidence {
  /** Its evaluation checkpoints so far (all phases). */
  readonly checkpoints: number;
  /** Its objective values at each rung it reached, by rung index (the pruner's smoothing applied). */
  readonly rungValues: readonly (readonly (number | null)[])[];
  /** Its objective values at its last checkpoint (unsmoothed); `null` before its first. */
  readonly lastValues: readonly (number | null)[] | null;
  /** Its best checkpoint by the first objective (1-based, the earliest of equals) and its values. */
  readonly best: {
    readonly checkpoint: number;
    readonly values: readonly (number | null)[];
  } | null;
}

/** One trial of a sweep's progress. */
export interface TrialProgress {
  readonly index: number;
  readonly parameters: TrialParameters;
  readonly runId: string | null;
  readonly status: TrialStatus;
  /** The rung index it is running towards or held at. */
  readonly rungIndex: number;
  /** The rung index that pruned it, else `null`. */
  readonly prunedAtRung: number | null;
  readonly evidence: TrialEvidence | null;
  readonly error: string | null;
}

/** A sweep's progress: plain JSON, what the sweep machine keeps and the store persists. */
export interface SweepProgress extends Pick<SweepSpec, 'pruner' | 'objectives'> {
  readonly trials: readonly TrialProgress[];
  /** One per decided rung, in rung order. */
  readonly decisions: readonly RungDecision[];
}

/** What a rung decision does: the progress after it, and the held trials it lets go on (it prunes `decision.pruned`). */
export interface DecisionApplied {
  readonly progress: SweepProgress;
  readonly decision: RungDecision;
  readonly released: readonly number[];
}

const active = (trial: TrialProgress): boolean =>
  trial.status === 'pending' || trial.status === 'running' || trial.status === 'held';

/**
 * The checkpoint count a trial at rung index `rungIndex` holds at, or `null`
 * past the last rung (it runs to its end).
 *
 * @example
 * ```ts
 * holdOf({ kind: 'successive_halving', rungs: [3, 6], eta: 2 }, 1); // 6
 * holdOf({ kind: 'successive_halving', rungs: [3, 6], eta: 2 }, 2); // null
 * ```
 */
export function holdOf(pruner: SweepPruner, rungIndex: number): number | null {
  return pruner.rungs[rungIndex] ?? null;
}

/** Whether every trial has ended. */
export function sweepEnded(progress: SweepProgress): boolean {
  return !progress.trials.some(active);
}

/**
 * The next rung's decision, when it can be taken: every trial that can still
 * reach the rung is held at it (none is pending or running towards it), so
 * the decision depends only on the records, never on which trial was
 * faster. Trials that completed past the rung are ranked there, never
 * pruned. `null` while some trial can still reach it, or past the last rung.
 *
 * @example
 * ```ts
 * const applied = nextDecision(progress);
 * applied?.decision.pruned; // [1, 3]
 * ```
 */
export function nextDecision(progress: SweepProgress): DecisionApplied | null {
  const rungIndex = progress.decisions.length;
  const rung = progress.pruner.rungs[rungIndex];
  if (rung === undefined) return null;
  const live = progress.trials.filter(active);
  if (live.some((trial) => trial.status !== 'held' || trial.rungIndex !== rungIndex)) return null;
  const reached = (trial: TrialProgress): boolean =>
    (trial.status === 'held' && trial.rungIndex === rungIndex) ||
    (trial.status === 'completed' && (trial.evidence?.rungValues.length ?? 0) > rungIndex);
  const entries: RungEntry[] = progress.trials.filter(reached).map((trial) => ({
    trial: trial.index,
    values: trial.evidence?.rungValues[rungIndex] ?? progress.objectives.map(() => null),
    prunable: trial.status === 'held',
  }));
  if (entries.length === 0) return null;
  const decision = decideRung(progress.pruner, rungIndex, entries, progress.objectives);
  const prunedSet = new Set(decision.pruned);
  const released: number[] = [];
  const trials = progress.trials.map((trial): TrialProgress => {
    if (trial.status !== 'held' || trial.rungIndex !== rungIndex) return trial;
    if (prunedSet.has(trial.index)) {
      return { ...trial, status: 'pruned', prunedAtRung: rungIndex };
    }
    released.push(trial.index);
    return { ...trial, status: 'running', rungIndex: rungIndex + 1 };
  });
  return {
    progress: { ...progress, trials, decisions: [...progress.decisions, decision] },
    decision,
    released,
  };
}
