import { ArenaError } from '../../domain/shared/errors.js';

/**
 * A run stopped because a remote component's service stopped answering. It is
 * not failed: it was rewound to its last episode barrier and left unleased, so
 * `--resume` (or another worker) continues it exactly once the service is back.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'RUN_INTERRUPTED'); // true when `error` is a RunInterruptedError
 * error instanceof RunInterruptedError && error.runId; // 'line-20261201T093000-3fa2'
 * ```
 */
export class RunInterruptedError extends ArenaError {
  readonly runId: string;
  /** The root cause, e.g. `RemoteComponentUnavailableError: no instance of service "line-sim" …`. */
  readonly reason: string;
  constructor(runId: string, reason: string) {
    super(
      'RUN_INTERRUPTED',
      `run '${runId}' is back at its last barrier, ready to resume: ${reason}`,
    );
    this.runId = runId;
    this.reason = reason;
  }
}
