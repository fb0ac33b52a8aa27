import { ArenaError } from '../domain/shared/errors.js';

/**
 * A run id that the store does not hold.
 *
 * @example
 * ```ts
 * store.getRun('nope');
 * // RunNotFoundError: no run 'nope' in the store
 * ```
 */
export class RunNotFoundError extends ArenaError {
  readonly runId: string;
  constructor(runId: string) {
    super('RUN_NOT_FOUND', `no run '${runId}' in the store`);
    this.runId = runId;
  }
}

/** A phase that was never started, e.g. given to `finishPhase`. */
export class PhaseNotFoundError extends ArenaError {
  constructor(runId: string, phaseIndex: number) {
    super('PHASE_NOT_FOUND', `run '${runId}' has no phase ${phaseIndex}`);
  }
}

/**
 * A record whose key is already stored (the same episode twice, say): a runner
 * bug, never silently overwritten.
 */
export class DuplicateRecordError extends ArenaError {
  constructor(what: string, options?: { cause?: unknown }) {
    super('DUPLICATE_RECORD', `${what} is already stored`, options);
  }
}

/** A record field the store cannot hold, e.g. a non-finite episode return. */
export class InvalidRecordError extends ArenaError {
  constructor(field: string, expected: string, got: unknown) {
    super('INVALID_RECORD', `${field} must be ${expected}, got ${String(got)}`);
  }
}

/** A batch of writes that failed; none of its commands were applied. */
export class StoreWriteError extends ArenaError {
  /** How many commands the failed batch held. */
  readonly lostCommands: number;
  constructor(lostCommands: number, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      'STORE_WRITE',
      `a batch of ${lostCommands} store writes failed and was rolled back: ${reason}`,
      { cause },
    );
    this.lostCommands = lostCommands;
  }
}

/** A write to a store writer that was closed. */
export class StoreWriterClosedError extends ArenaError {
  constructor() {
    super('STORE_WRITER_CLOSED', 'the store writer is closed');
  }
}

/** A `--store` value arena cannot open. */
export class StoreUriError extends ArenaError {
  constructor(uri: string) {
    super('STORE_URI', `--store must be sqlite:PATH (e.g. sqlite:.arena/arena.db), got '${uri}'`);
  }
}

/** A store file written by a newer arena, whose schema this one does not know. */
export class StoreSchemaError extends ArenaError {
  constructor(path: string, version: number, known: number) {
    super(
      'STORE_SCHEMA',
      `${path} has store schema version ${version}, but this arena knows versions up to ${known}; upgrade arena`,
    );
  }
}

/** `--resume` of a run that cannot go on: it succeeded, or it has no snapshot yet. */
export class NothingToResumeError extends ArenaError {
  readonly runId: string;
  constructor(runId: string, why: string) {
    super('NOTHING_TO_RESUME', `run '${runId}' cannot be resumed: ${why}`);
    this.runId = runId;
  }
}
