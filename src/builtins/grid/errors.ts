import { ArenaError } from '../../domain/shared/errors.js';

/**
 * Thrown when a grid environment's params or scenario are invalid. The message
 * names the RFC 6901 pointer inside `params` and says what was expected.
 *
 * @example
 * ```ts
 * new GridEnvironment({ ...init, params: { scenario: { step_size: -1 } } }).start(params);
 * // GridScenarioError: /scenario/step_size: expected a number > 0, got -1
 * ```
 */
export class GridScenarioError extends ArenaError {
  constructor(message: string) {
    super('GRID_SCENARIO', message);
  }
}

/** Thrown when the feeder's line data is not one radial tree rooted at the slack bus. */
export class GridTopologyError extends ArenaError {
  constructor(message: string) {
    super('GRID_TOPOLOGY', message);
  }
}

/** Thrown when `step` is called before `start`, after `done`, or after `close`. */
export class GridLifecycleError extends ArenaError {
  constructor(message: string) {
    super('GRID_LIFECYCLE', message);
  }
}

/** Thrown when an action value is not a finite number or names no actuator of the grid. */
export class GridActionError extends ArenaError {
  constructor(message: string) {
    super('GRID_ACTION', message);
  }
}
