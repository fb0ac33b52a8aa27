import { ArenaError } from '../../domain/shared/errors.js';

/**
 * Thrown when a built-in brain, muscle or objective gets invalid `params`; the
 * message names the component, the field and what was expected.
 *
 * @example
 * ```ts
 * new CrossEntropyBrain({ ...init, params: { population: 1 } });
 * // BrainParamsError: CrossEntropyBrain params.population: Too small: expected number to be >=2
 * ```
 */
export class BrainParamsError extends ArenaError {
  constructor(message: string) {
    super('BRAIN_PARAMS', message);
  }
}

/** Thrown when saved brain state cannot be loaded, or a brain is used before `setup`. */
export class BrainStateError extends ArenaError {
  constructor(message: string) {
    super('BRAIN_STATE', message);
  }
}

/** Thrown when a brain's proposal leaves out an actuator or is not a finite number. */
export class MuscleProposalError extends ArenaError {
  constructor(message: string) {
    super('MUSCLE_PROPOSAL', message);
  }
}

/** Thrown when an objective is given a reward that is not a finite number. */
export class ObjectiveRewardError extends ArenaError {
  constructor(message: string) {
    super('OBJECTIVE_REWARD', message);
  }
}
