import type { JsonValue } from '../shared/json.js';

/**
 * A sweep: many variants (trials) of one run file, the losing ones stopped
 * early at rungs of evaluation checkpoints by the same evidence. Plain data,
 * read from a sweep file (`config/sweepFile.ts`) and decided on by the pure
 * functions of this folder; the sweep machine only sequences them.
 */

/** Which way an objective is better. */
export type ObjectiveDirection = 'maximize' | 'minimize';

/**
 * One objective of a sweep: a metric of the evaluation checkpoints' outcomes,
 * of one agent or weighted across agents (`weights`: agent name -> weight; the
 * objective at a checkpoint is the weighted sum of the agents' metric values).
 */
export interface SweepObjective {
  readonly metric: string;
  /** Agent name -> weight (a single agent with weight 1 is "per agent"). */
  readonly weights: Readonly<Record<string, number>>;
  readonly direction: ObjectiveDirection;
}

/** A parameter with listed values (a grid axis, or a random choice). */
export interface ListedParameter {
  readonly kind: 'values';
  /** An RFC 6901 JSON pointer into the base run file's document. */
  readonly pointer: string;
  /** What the leaderboard calls it; default: the pointer's last key. */
  readonly name?: string;
  readonly values: readonly JsonValue[];
}

/** A parameter drawn from a range (random search only). */
export interface RangeParameter {
  readonly kind: 'range';
  readonly pointer: string;
  readonly name?: string;
  readonly low: number;
  readonly high: number;
  /** Whole numbers in [low, high], both ends included. */
  readonly integer: boolean;
  /** Drawn uniformly in log space (low > 0). */
  readonly log: boolean;
}

/** One parameter a sweep varies: listed values, or a range to draw from. */
export type SweepParameter = ListedParameter | RangeParameter;

/** How trials are made: every combination of listed values, or `trials` seeded draws. */
export type SweepSearch =
  | { readonly kind: 'grid' }
  | { readonly kind: 'random'; readonly trials: number };

/**
 * How losing trials stop. `rungs` are counts of evaluation checkpoints of a
 * trial's run (all phases, in order), strictly increasing. Both pruners are
 * synchronous: a rung is decided once every trial that can reach it has.
 */
export type SweepPruner =
  | {
      /** Keep the best ceil(n / eta) of the n trials at each rung. */
      readonly kind: 'successive_halving';
      readonly rungs: readonly number[];
      readonly eta: number;
    }
  | {
      /** Stop a trial whose smoothed objective at a rung is worse than the median of the trials there. */
      readonly kind: 'median';
      readonly rungs: readonly number[];
      /** The objective at a rung is the mean of the last `window` checkpoints up to it. */
      readonly window: number;
      /** A rung with fewer trials than this prunes nothing. */
      readonly minTrials: number;
    }
  | { readonly kind: 'none'; readonly rungs: readonly number[] };

/** One value set at one pointer of a trial's run file. */
export interface ParameterValue {
  readonly pointer: string;
  /** The parameter's name in the sweep file, when it gives one. */
  readonly name?: string;
  readonly value: JsonValue;
}

/** What a trial varies, in the order the sweep file lists its parameters. */
export type TrialParameters = readonly ParameterValue[];

/** A sweep as read from its sweep file. */
export interface SweepSpec {
  /** The sweep's name (`sweep:` in the file). */
  readonly uid: string;
  readonly seed: number;
  /** The base run file's path, as the sweep file names it, resolved against the sweep file's folder. */
  readonly runFile: string;
  readonly parameters: readonly SweepParameter[];
  readonly search: SweepSearch;
  /** One objective, or several (multi-objective: Pareto dominance at rungs). */
  readonly objectives: readonly SweepObjective[];
  readonly pruner: SweepPruner;
  /** Where each objective was written in the sweep file, to name it in an error (parsed files have it). */
  readonly objectiveSources?: readonly ObjectiveSource[];
}

/** Where one objective's metric and each of its agents stand in the sweep file, as YAML paths. */
export interface ObjectiveSource {
  /** `objective.metric`, `objectives[1].metric`. */
  readonly metric: string;
  /** Agent name -> `objective.agent` or `objectives[1].weights.<agent>`. */
  readonly agents: Readonly<Record<string, string>>;
}

/** One trial's evidence at a rung: its objective values (one per objective; `null` when a value is missing). */
export interface RungEntry {
  readonly trial: number;
  readonly values: readonly (number | null)[];
  /** `false` for a trial that already ended (completed) at or past the rung: ranked, never stopped. */
  readonly prunable: boolean;
}

/** A rung's decision. */
export interface RungDecision {
  /** The rung's position in `pruner.rungs`. */
  readonly rungIndex: number;
  /** The checkpoint count of the rung. */
  readonly rung: number;
  /** The trials ranked at the rung, best first (ties by trial index). */
  readonly ranking: readonly number[];
  readonly kept: readonly number[];
  readonly pruned: readonly number[];
  /** The median rule's median per objective at the rung; `null` for other pruners. */
  readonly median: readonly (number | null)[] | null;
}
