import { arenaErrorClass } from '../shared/errors.js';

/**
 * A sweep's parameters or search that cannot make trials: a range parameter
 * in a grid search, an empty values list, a range with low ≥ high. The
 * message names the parameter (`parameters[1]`) and what was expected.
 *
 * @example
 * ```ts
 * expandTrials({ seed: 0, search: { kind: 'grid' }, parameters: [range] });
 * // throws SweepSearchError (code SWEEP_SEARCH):
 * // parameters[0] ("/a"): a range parameter cannot be a grid axis; list its values, or use a random search
 * ```
 */
export class SweepSearchError extends arenaErrorClass('SWEEP_SEARCH') {}

/**
 * A rung that cannot be decided: two entries for one trial, an entry with a
 * value count other than the objectives', a rung index outside the pruner's rungs.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'SWEEP_DECISION'); // true when `error` is a SweepDecisionError
 * error instanceof SweepDecisionError && error.name; // 'SweepDecisionError'
 * ```
 */
export class SweepDecisionError extends arenaErrorClass('SWEEP_DECISION') {}
