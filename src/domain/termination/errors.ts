import { ArenaError } from '../shared/errors.js';

/**
 * One problem in a termination rule set: where it is, relative to the rules
 * as given (`['agents', 'SAC', 'success', 'min_evaluations']`), what is wrong
 * there (`detail`), and the same as one sentence naming agent and field
 * (`message`).
 */
export interface TerminationConfigIssue {
  readonly path: readonly (string | number)[];
  readonly detail: string;
  readonly message: string;
  /** The accepted name a misspelt key most likely meant. */
  readonly suggestion?: string;
  /** What is accepted there, e.g. `exactly metric, threshold, ...`. */
  readonly expected?: string;
}

/**
 * A termination rule set or phase configuration that breaks the seed's rules.
 * The message names the agent and the field, and says what was expected.
 *
 * @example
 * ```ts
 * parseTerminationConfig({ agents: { SAC: { success: { ...rule, consecutive: true } } } });
 * // throws TerminationConfigError (code TERMINATION_CONFIG):
 * // agent "SAC": success.consecutive must be a positive integer (booleans are not integers), got true
 * ```
 */
export class TerminationConfigError extends ArenaError {
  /** Every problem of a rule set, when the error is about one (see `terminationConfigIssues`). */
  readonly issues: readonly TerminationConfigIssue[];

  constructor(message: string, options?: { issues?: readonly TerminationConfigIssue[] }) {
    super('TERMINATION_CONFIG', message);
    this.issues = options?.issues ?? [];
  }
}

/**
 * A saved state dict that cannot be restored for this configuration.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'TERMINATION_STATE'); // true when `error` is a TerminationStateError
 * error instanceof TerminationStateError && error.name; // 'TerminationStateError'
 * ```
 */
export class TerminationStateError extends ArenaError {
  constructor(message: string) {
    super('TERMINATION_STATE', message);
  }
}

/**
 * An evaluation episode that is not the agent's next one (a gap or a regression).
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'OUT_OF_ORDER_EVALUATION'); // true when `error` is a OutOfOrderEvaluationError
 * error instanceof OutOfOrderEvaluationError && error.name; // 'OutOfOrderEvaluationError'
 * ```
 */
export class OutOfOrderEvaluationError extends ArenaError {
  constructor(message: string) {
    super('OUT_OF_ORDER_EVALUATION', message);
  }
}

/**
 * A known evaluation id re-sent with different data.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'CONFLICTING_DUPLICATE'); // true when `error` is a ConflictingDuplicateError
 * error instanceof ConflictingDuplicateError && error.name; // 'ConflictingDuplicateError'
 * ```
 */
export class ConflictingDuplicateError extends ArenaError {
  constructor(message: string) {
    super('CONFLICTING_DUPLICATE', message);
  }
}

/**
 * Two outcomes for the same agent in one checkpoint.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'DUPLICATE_AGENT_OUTCOME'); // true when `error` is a DuplicateAgentOutcomeError
 * error instanceof DuplicateAgentOutcomeError && error.name; // 'DuplicateAgentOutcomeError'
 * ```
 */
export class DuplicateAgentOutcomeError extends ArenaError {
  constructor(message: string) {
    super('DUPLICATE_AGENT_OUTCOME', message);
  }
}

/**
 * A malformed checkpoint or outcome (not an array, metrics not a mapping, a
 * non-string checkpoint id...). An outcome with a missing or non-finite metric
 * is not malformed: it is accepted as an invalid outcome.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'INVALID_OUTCOME'); // true when `error` is a InvalidOutcomeError
 * error instanceof InvalidOutcomeError && error.name; // 'InvalidOutcomeError'
 * ```
 */
export class InvalidOutcomeError extends ArenaError {
  constructor(message: string) {
    super('INVALID_OUTCOME', message);
  }
}
