import { ArenaError } from '../shared/errors.js';

/**
 * A component spec list the objective cannot be built from; the message names the field.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'OBJECTIVE_CONFIG'); // true when `error` is a ObjectiveConfigError
 * error instanceof ObjectiveConfigError && error.name; // 'ObjectiveConfigError'
 * ```
 */
export class ObjectiveConfigError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('OBJECTIVE_CONFIG', message, options);
  }
}

/**
 * Readings the objective cannot evaluate: a component's reading is missing or not finite.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'OBJECTIVE_INPUT'); // true when `error` is a ObjectiveInputError
 * error instanceof ObjectiveInputError && error.name; // 'ObjectiveInputError'
 * ```
 */
export class ObjectiveInputError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('OBJECTIVE_INPUT', message, options);
  }
}
