/**
 * `arena-runtime/sweep`: sweeps of a run file's variants, the losing trials
 * stopped at rungs of evaluation checkpoints. The pruners are plain
 * functions over plain data (`decideRung`, `expandTrials`, `rankTrials`);
 * `sweepMachine` sequences them, and `runSweep` runs the trials as ordinary
 * runs of a store, locally or on the fleet.
 *
 * @example
 * ```ts
 * import { decideRung } from 'arena-runtime/sweep';
 * const objective = { metric: 'objective', weights: { operator: 1 }, direction: 'maximize' } as const;
 * decideRung({ kind: 'successive_halving', rungs: [3], eta: 2 }, 0, [
 *   { trial: 0, values: [1.5], prunable: true },
 *   { trial: 1, values: [2.5], prunable: true },
 * ], [objective]).pruned; // [0]
 * ```
 */

export type {
  RunSweepOptions,
  SweepOutcome,
  SweepRunEvent,
  SweepStart,
  SweepTrialFile,
} from '../actors/sweep/runSweep.js';
export { runSweep } from '../actors/sweep/runSweep.js';
export { loadSweepFile, parseSweepFile, SweepFileError } from '../config/sweepFile.js';
export type { PreparedTrial } from '../config/sweepTrials.js';
export { prepareSweepTrials } from '../config/sweepTrials.js';
export { trialRunFileText } from '../config/trialRunFile.js';
export { decideRung } from '../domain/sweep/decideRung.js';
export { dominates } from '../domain/sweep/dominates.js';
export { SweepDecisionError, SweepSearchError } from '../domain/sweep/errors.js';
export { expandTrials } from '../domain/sweep/expandTrials.js';
export type {
  SweepProgress,
  TrialEvidence,
  TrialProgress,
  TrialStatus,
} from '../domain/sweep/progress.js';
export { rankTrials } from '../domain/sweep/rankTrials.js';
export type {
  ListedParameter,
  ObjectiveDirection,
  ParameterValue,
  RangeParameter,
  RungDecision,
  RungEntry,
  SweepObjective,
  SweepParameter,
  SweepPruner,
  SweepSearch,
  SweepSpec,
  TrialParameters,
} from '../domain/sweep/types.js';
export type { SweepContext, SweepEmitted, SweepEvent } from '../machines/sweep.js';
export { initialSweepProgress, sweepMachine } from '../machines/sweep.js';
