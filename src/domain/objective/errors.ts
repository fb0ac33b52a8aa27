import { arenaErrorClass } from '../shared/errors.js';

/**
 * A component spec list the objective cannot be built from; the message names the field.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'OBJECTIVE_CONFIG'); // true when `error` is a ObjectiveConfigError
 * error instanceof ObjectiveConfigError && error.name; // 'ObjectiveConfigError'
 * ```
 */
export class ObjectiveConfigError extends arenaErrorClass('OBJECTIVE_CONFIG') {}

/**
 * Readings the objective cannot evaluate: a component's reading is missing or not finite.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'OBJECTIVE_INPUT'); // true when `error` is a ObjectiveInputError
 * error instanceof ObjectiveInputError && error.name; // 'ObjectiveInputError'
 * ```
 */
export class ObjectiveInputError extends arenaErrorClass('OBJECTIVE_INPUT') {}
