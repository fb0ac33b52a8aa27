import { ArenaError } from '../shared/errors.js';

/** A component spec list the objective cannot be built from; the message names the field. */
export class ObjectiveConfigError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('OBJECTIVE_CONFIG', message, options);
  }
}

/** Readings the objective cannot evaluate: a component's reading is missing or not finite. */
export class ObjectiveInputError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('OBJECTIVE_INPUT', message, options);
  }
}
