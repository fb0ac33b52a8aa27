import { ArenaError } from '../../domain/shared/errors.js';
import { arenaCommand } from '../runtime/arenaCommand.js';
import { redactUrl } from '../runtime/redactUrl.js';
import type { LeaseHolder } from './store.js';

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

/**
 * A phase that was never started, e.g. given to `finishPhase`.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'PHASE_NOT_FOUND'); // true when `error` is a PhaseNotFoundError
 * error instanceof PhaseNotFoundError && error.name; // 'PhaseNotFoundError'
 * ```
 */
export class PhaseNotFoundError extends ArenaError {
  constructor(runId: string, phaseIndex: number) {
    super('PHASE_NOT_FOUND', `run '${runId}' has no phase ${phaseIndex}`);
  }
}

/**
 * A record whose key is already stored (the same episode twice, say): a runner
 * bug, never silently overwritten.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'DUPLICATE_RECORD'); // true when `error` is a DuplicateRecordError
 * error instanceof DuplicateRecordError && error.name; // 'DuplicateRecordError'
 * ```
 */
export class DuplicateRecordError extends ArenaError {
  constructor(what: string, options?: { cause?: unknown }) {
    super('DUPLICATE_RECORD', `${what} is already stored`, options);
  }
}

/**
 * A record field the store cannot hold, e.g. a non-finite episode return.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'INVALID_RECORD'); // true when `error` is a InvalidRecordError
 * error instanceof InvalidRecordError && error.name; // 'InvalidRecordError'
 * ```
 */
export class InvalidRecordError extends ArenaError {
  constructor(field: string, expected: string, got: unknown) {
    super('INVALID_RECORD', `${field} must be ${expected}, got ${String(got)}`);
  }
}

/**
 * A batch of writes that failed; none of its commands were applied.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'STORE_WRITE'); // true when `error` is a StoreWriteError
 * error instanceof StoreWriteError && error.name; // 'StoreWriteError'
 * ```
 */
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

/**
 * A write to a store writer that was closed.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'STORE_WRITER_CLOSED'); // true when `error` is a StoreWriterClosedError
 * error instanceof StoreWriterClosedError && error.name; // 'StoreWriterClosedError'
 * ```
 */
export class StoreWriterClosedError extends ArenaError {
  constructor() {
    super('STORE_WRITER_CLOSED', 'the store writer is closed');
  }
}

/**
 * A `--store` value arena cannot open; `problem` says what a `postgres://` URI lacks.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'STORE_URI'); // true when `error` is a StoreUriError
 * error instanceof StoreUriError && error.name; // 'StoreUriError'
 * ```
 */
export class StoreUriError extends ArenaError {
  constructor(uri: string, problem?: string) {
    // the message names the URI, but never its password
    const shown = redactUrl(uri);
    const postgres =
      problem === undefined
        ? ' (or postgres://USER@HOST:PORT/DATABASE)'
        : `: a postgres:// store ${problem}, e.g. postgres://arena@127.0.0.1:5432/arena`;
    super(
      'STORE_URI',
      `--store must be sqlite:PATH (e.g. sqlite:.arena/arena.db), got '${shown}'${postgres}`,
    );
  }
}

/**
 * A parameter of a `postgres://` store URI (`?sslmode=…`, `sslrootcert=…`)
 * that arena cannot use: an unknown name, a value libpq would refuse, or a
 * file it names that cannot be read. `store` is the URI without its password.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'STORE_URI_PARAMETER'); // true when `error` is a StoreUriParameterError
 * error.message;
 * // "postgres://arena@127.0.0.1:5432/arena: sslmode must be disable, allow, prefer, require, verify-ca or verify-full, got 'on'"
 * ```
 */
export class StoreUriParameterError extends ArenaError {
  constructor(store: string, problem: string) {
    super('STORE_URI_PARAMETER', `${store}: ${problem}`);
  }
}

/**
 * A store file written by a newer arena, whose schema this one does not know.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'STORE_SCHEMA'); // true when `error` is a StoreSchemaError
 * error instanceof StoreSchemaError && error.name; // 'StoreSchemaError'
 * ```
 */
export class StoreSchemaError extends ArenaError {
  constructor(path: string, version: number, known: number) {
    super(
      'STORE_SCHEMA',
      `${path} has store schema version ${version}, but this arena knows versions up to ${known}; upgrade arena`,
    );
  }
}

/**
 * `--resume` of a run that cannot go on: it succeeded, or it has no snapshot yet.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'NOTHING_TO_RESUME'); // true when `error` is a NothingToResumeError
 * error instanceof NothingToResumeError && error.name; // 'NothingToResumeError'
 * ```
 */
export class NothingToResumeError extends ArenaError {
  readonly runId: string;
  constructor(runId: string, why: string) {
    super('NOTHING_TO_RESUME', `run '${runId}' cannot be resumed: ${why}`);
    this.runId = runId;
  }
}

/** How long from `now` until `iso`, for messages: `in 13 s`, `2 s ago`. */
function relative(iso: string, now: Date): string {
  const ms = Date.parse(iso) - now.getTime();
  // the sign before rounding: a heartbeat 0.3 s ago reads `0 s ago`, not `in 0 s`
  return ms > 0 ? `in ${Math.round(ms / 1000)} s` : `${Math.round(-ms / 1000)} s ago`;
}

/**
 * Another process holds the run's lease: it is being run or resumed right now.
 *
 * @example
 * ```ts
 * store.acquireLease(runId, { owner, ttlMs: 15_000 });
 * // RunLeasedError: run 'grid-…' is being run by pid 4242 on lab-1 (3fa2c1) (last heartbeat 2 s ago,
 * // its lease lapses in 13 s): wait for it to end, or stop that process first
 * ```
 */
export class RunLeasedError extends ArenaError {
  readonly runId: string;
  readonly holder: LeaseHolder;
  constructor(runId: string, holder: LeaseHolder, now: Date) {
    super(
      'RUN_LEASED',
      `run '${runId}' is being run by ${holder.owner.id} (last heartbeat ${relative(holder.heartbeatAt, now)}, its lease lapses ${relative(holder.expiresAt, now)}): wait for it to end, or stop that process first`,
    );
    this.runId = runId;
    this.holder = holder;
  }
}

/**
 * This process no longer holds the run's lease (it lapsed and another took over): it must stop writing.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'LEASE_LOST'); // true when `error` is a LeaseLostError
 * error instanceof LeaseLostError && error.name; // 'LeaseLostError'
 * ```
 */
export class LeaseLostError extends ArenaError {
  readonly runId: string;
  constructor(runId: string, holder: LeaseHolder | null, options?: { cause?: unknown }) {
    const now = holder === null ? 'nobody holds it now' : `${holder.owner.id} holds it now`;
    super(
      'LEASE_LOST',
      `run '${runId}' is no longer leased to this process (${now}): it stopped without writing more`,
      options,
    );
    this.runId = runId;
  }
}

/**
 * A read command named a store file that does not exist (it never creates one).
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'STORE_NOT_FOUND'); // true when `error` is a StoreNotFoundError
 * error instanceof StoreNotFoundError && error.name; // 'StoreNotFoundError'
 * ```
 */
export class StoreNotFoundError extends ArenaError {
  readonly path: string;
  /** `hint`: how the command at hand names a store (default: its `--store` option). */
  constructor(path: string, hint = 'name another with --store') {
    super('STORE_NOT_FOUND', `no store at ${path} (${arenaCommand('run')} creates one; ${hint})`);
    this.path = path;
  }
}

/**
 * A store file that cannot be used: not a database, not arena's, or damaged.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'STORE_OPEN'); // true when `error` is a StoreOpenError
 * error instanceof StoreOpenError && error.name; // 'StoreOpenError'
 * ```
 */
export class StoreOpenError extends ArenaError {
  readonly path: string;
  constructor(path: string, problem: string, options?: { cause?: unknown }) {
    super('STORE_OPEN', `${path}: ${problem}`, options);
    this.path = path;
  }
}

/**
 * A write to a store that was opened for reading only.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'STORE_READ_ONLY'); // true when `error` is a StoreReadOnlyError
 * error instanceof StoreReadOnlyError && error.name; // 'StoreReadOnlyError'
 * ```
 */
export class StoreReadOnlyError extends ArenaError {
  constructor(what: string) {
    super('STORE_READ_ONLY', `the store was opened read-only: cannot ${what}`);
  }
}

/**
 * A sweep id the store does not hold.
 *
 * @example
 * ```ts
 * store.getSweep('nope');
 * // SweepNotFoundError: no sweep 'nope' in the store
 * ```
 */
export class SweepNotFoundError extends ArenaError {
  readonly sweepId: string;
  constructor(sweepId: string) {
    super('SWEEP_NOT_FOUND', `no sweep '${sweepId}' in the store`);
    this.sweepId = sweepId;
  }
}

/** A write a command needs of one table of the store, e.g. `{ privilege: 'UPDATE', table: 'runs' }`. */
export interface TableWrite {
  readonly privilege: 'INSERT' | 'UPDATE' | 'DELETE';
  readonly table: string;
}

/**
 * The database refused this user something its command needs: the store
 * URI names a role that may not do this (see `docs/postgres/roles.sql` and
 * `grants.sql`). Bad input, never a server fault: no wait cures it.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'STORE_PERMISSION'); // true when `error` is a StorePermissionError
 * error.message;
 * // "postgres://arena_viewer@db:5432/arena: user 'arena_viewer' may not UPDATE runs, INSERT episodes (that role may not do this; arena's roles: docs/postgres/roles.sql and grants.sql)"
 * ```
 */
export class StorePermissionError extends ArenaError {
  constructor(display: string, user: string, refused: string, options?: { cause?: unknown }) {
    super(
      'STORE_PERMISSION',
      `${display}: user '${user}' ${refused} (that role may not do this; arena's roles: docs/postgres/roles.sql and grants.sql)`,
      options,
    );
  }
}
