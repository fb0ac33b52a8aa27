import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { arenaCommand } from '../../runtime/arenaCommand.js';
import { type Clock, systemClock } from '../../runtime/clock.js';
import { createRunIdGenerator, type RunIdGenerator } from '../../runtime/runId.js';
import { StoreNotFoundError, StoreOpenError, StoreSchemaError } from '../storeErrors.js';
import { sqliteDriver } from './sqliteDriver.js';
import { migrateStore, storeMigrations, storeVersion } from './sqliteSchema.js';
import type { SqliteStoreOptions } from './sqliteStoreOptions.js';

/** How a store file is opened. */
export interface SqliteOpenOptions {
  /** Read only: never create, migrate or write the file (`arena runs`, `show`, `report`, `check`). */
  readonly readonly?: boolean;
  /** How long a write waits for another process's write lock before it fails. */
  readonly busyTimeoutMs?: number;
}

/** What SQLite says of a damaged or foreign file, as a user can act on it. */
const problemsByCode: Readonly<Record<string, string>> = {
  SQLITE_NOTADB: 'not a database (is this the right file?)',
  SQLITE_CORRUPT: 'the database is damaged (CHECK lists the damage)',
  SQLITE_CANTOPEN: 'cannot be opened (check the path and its permissions)',
  SQLITE_READONLY: 'is read-only, and this command writes to the store',
  SQLITE_IOERR: 'cannot be read (disk I/O error)',
};

/**
 * Turn SQLite's error for an unusable file into one line that names the file;
 * other errors pass through unchanged.
 *
 * @internal the store adapters' own helper; its types are better-sqlite3's.
 * @example
 * ```ts
 * storeFileError('/runs/x.db', sqliteNotADbError).message;
 * // '/runs/x.db: not a database (is this the right file?)'
 * ```
 */
export function storeFileError(path: string, error: unknown): unknown {
  if (!(error instanceof sqliteDriver().SqliteError)) return error;
  const base = error.code.replace(/_[A-Z]+$/, '');
  const problem = (problemsByCode[error.code] ?? problemsByCode[base])?.replace(
    'CHECK',
    arenaCommand(`check sqlite:${path}`),
  );
  return problem === undefined ? error : new StoreOpenError(path, problem, { cause: error });
}

/**
 * Open a store file: for writing (created and migrated as needed; the write
 * lock is waited for `busyTimeoutMs`), or read-only (it must exist and is
 * never changed; a store in a read-only folder is read from a copy in memory,
 * because SQLite cannot open a WAL file there).
 *
 * @internal the store adapters' own helper; its types are better-sqlite3's.
 * @example
 * ```ts
 * const db = openStoreDatabase('.arena/arena.db', { readonly: true });
 * ```
 */
export function openStoreDatabase(
  path: string,
  options: SqliteOpenOptions = {},
): Database.Database {
  const memory = path === ':memory:';
  if (options.readonly === true && !memory && !existsSync(path)) throw new StoreNotFoundError(path);
  let db: Database.Database | null = null;
  try {
    db = options.readonly === true && !memory ? openReadonly(path) : new (sqliteDriver())(path);
    registerSha256(db);
    // busy_timeout first: every later statement, journal_mode included, waits for a lock instead of failing
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 30_000}`);
    if (options.readonly === true) {
      requireKnownVersion(db, path);
      // a read-only file must already be an arena store of a version this arena can read
      if (storeVersion(db) === 0)
        throw new StoreOpenError(path, 'an empty database, not an arena store');
    } else {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrateStore(db, path);
    }
    db.pragma('foreign_keys = ON');
    return db;
  } catch (error) {
    db?.close();
    throw storeFileError(path, error);
  }
}

/** `arena_sha256(text)`: the hex SHA-256 the sealing triggers and `arena check --deep` take (SQLite has none of its own). */
function registerSha256(db: Database.Database): void {
  db.function('arena_sha256', { deterministic: true }, (text: unknown) =>
    text === null ? null : createHash('sha256').update(String(text)).digest('hex'),
  );
}

function openReadonly(path: string): Database.Database {
  try {
    const db = new (sqliteDriver())(path, { readonly: true, fileMustExist: true });
    db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
    return db;
  } catch (error) {
    if (
      !(error instanceof sqliteDriver().SqliteError) ||
      error.code !== 'SQLITE_READONLY_DIRECTORY'
    ) {
      throw error;
    }
    return openCopyInMemory(path);
  }
}

/** A WAL file in a folder SQLite cannot write (no `-shm` possible): read it as a rollback-journal copy. */
function openCopyInMemory(path: string): Database.Database {
  const wal = `${path}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw new StoreOpenError(
      path,
      'its folder is read-only and it has changes not yet checkpointed (in its -wal file); open it once where it can be written',
    );
  }
  const bytes = readFileSync(path);
  // bytes 18-19 of the header: 2 = WAL, 1 = rollback journal; the copy is read in memory, so no WAL
  if (bytes.length >= 20 && bytes[18] === 2) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  return new (sqliteDriver())(bytes, { readonly: true });
}

function requireKnownVersion(db: Database.Database, path: string): void {
  const version = storeVersion(db);
  if (version > storeMigrations.length) {
    throw new StoreSchemaError(path, version, storeMigrations.length);
  }
}

/**
 * What each SQLite store opens with: the database (see `openStoreDatabase`),
 * its clock and its run id maker.
 *
 * @internal the store adapters' own helper; its types are better-sqlite3's.
 *
 * @example
 * ```ts
 * const { db, clock, newRunId, readonly } = openSqliteStoreParts('.arena/arena.db', { readonly: true });
 * ```
 */
export function openSqliteStoreParts(
  path: string,
  options: SqliteStoreOptions,
): {
  db: Database.Database;
  clock: Clock;
  newRunId: RunIdGenerator;
  readonly: boolean;
} {
  const clock = options.clock ?? systemClock;
  const readonly = options.readonly === true;
  const db = openStoreDatabase(path, {
    readonly,
    ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
  });
  return {
    db,
    clock,
    newRunId: options.newRunId ?? createRunIdGenerator(),
    readonly,
  };
}
