import { arenaErrorClass } from '../shared/errors.js';

/**
 * A search the sweep cannot expand (a range parameter in a grid search).
 *
 * @example
 * ```ts
 * expandTrials({ seed: 0, search: { kind: 'grid' }, parameters: [{ kind: 'range', pointer: '/lr', low: 0, high: 1, integer: false, log: false }] });
 * // SweepSearchError: parameters[0] (/lr) is a range: a grid search needs listed values
 * ```
 */
export class SweepSearchError extends arenaErrorClass('SWEEP_SEARCH') {}

/**
 * A rung's entries the pruner cannot decide on (a trial twice, a value per objective missing).
 *
 * @example
 * ```ts
 * decideRung(pruner, 0, [{ trial: 1, values: [2], prunable: true }, { trial: 1, values: [3], prunable: true }], [objective]);
 * // SweepDecisionError: trial 1 is twice at the rung
 * ```
 */
export class SweepDecisionError extends arenaErrorClass('SWEEP_DECISION') {}
