import { ArenaError } from '../domain/shared/errors.js';

/** Exit codes of the `arena` command. */
export const ExitCode = {
  ok: 0,
  /** A gate failed, or a required fuzz reason was unreachable. */
  failed: 1,
  /** Bad input: a config, YAML, JSON or argument error, or a command line commander cannot parse. */
  badInput: 2,
  /** A server (the store, NATS) went away and did not come back within the patience: nothing was lost, nothing was wrong with the input. */
  unavailable: 3,
  /** Interrupted by the user (Ctrl-C) or cancelled. */
  cancelled: 130,
} as const;

/** An error the CLI reports as one line and a chosen exit code. */
export class CliError extends ArenaError {
  readonly exitCode: number;
  constructor(
    message: string,
    exitCode: number = ExitCode.badInput,
    options?: { cause?: unknown },
  ) {
    super('CLI', message, options);
    this.exitCode = exitCode;
  }
}
