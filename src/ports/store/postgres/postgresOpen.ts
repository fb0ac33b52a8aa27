import {
  StoreNotFoundError,
  StoreOpenError,
  StorePermissionError,
  StoreSchemaError,
  type TableWrite,
} from '../storeErrors.js';
import { StoreConnectionError } from './postgresErrors.js';
import { migrationLockKey, postgresMigrations } from './postgresSchema.js';
import {
  type ConnectionConfig,
  openSyncConnection,
  type PgFailure,
  PgQueryError,
  type SyncConnection,
} from './syncConnection.js';

/** How a PostgreSQL store is opened. */
export interface PostgresOpenOptions {
  /** Read only: never create or migrate the schema; every transaction is READ ONLY. */
  readonly readonly?: boolean;
  /** How long a write waits for another writer's row lock before it fails (default 30 s). */
  readonly busyTimeoutMs?: number;
  /** How long connecting may take (default 10 s). */
  readonly connectTimeoutMs?: number;
  /**
   * The writes the command needs: checked once the store is open, so a role
   * that may not do its job is refused at the start (`StorePermissionError`),
   * not at its first run.
   */
  readonly requiredWrites?: readonly TableWrite[];
}

/**
 * Turn a connection failure into one line a user can act on, naming the
 * server; other failures pass through unchanged.
 *
 * @example
 * ```ts
 * connectionError('postgres://arena@127.0.0.1:5999/arena', config, { code: 'ECONNREFUSED', ... }).message;
 * // 'postgres://arena@127.0.0.1:5999/arena: cannot connect to 127.0.0.1:5999 (ECONNREFUSED): is the server running?'
 * ```
 */
export function connectionError(
  display: string,
  config: ConnectionConfig,
  error: unknown,
): unknown {
  if (!(error instanceof PgQueryError)) return error;
  const problem = connectionProblem(config, error.failure);
  return problem === null ? error : new StoreOpenError(display, problem, { cause: error });
}

function connectionProblem(config: ConnectionConfig, failure: PgFailure): string | null {
  const server = `${config.host}:${config.port}`;
  switch (failure.code) {
    case 'ECONNREFUSED':
      return `cannot connect to ${server} (ECONNREFUSED): is the server running?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve the host ${config.host} (${failure.code})`;
    case 'ETIMEDOUT':
      return `cannot connect to ${server}: no answer within ${config.connectTimeoutMs} ms (ETIMEDOUT)`;
    case '28P01':
    case '28000':
      return `the server at ${server} refused user '${config.user}' (${failure.code}: ${failure.message})`;
    case '3D000':
      return `the server at ${server} has no database '${config.database}' (3D000); create it first: createdb -h ${config.host} -p ${config.port} -U ${config.user} ${config.database}`;
    default:
      if (failure.message.includes('timeout expired'))
        return `cannot connect to ${server}: no answer within ${config.connectTimeoutMs} ms`;
      return tlsProblem(server, config.tls.sslmode, failure);
  }
}

/** A TLS session the sslmode needs but could not have: the server offers none, or its certificate fails the check. */
function tlsProblem(server: string, sslmode: string, failure: PgFailure): string | null {
  if (failure.message.includes('does not support SSL'))
    return `the server at ${server} does not offer TLS, and sslmode=${sslmode} needs it`;
  if (failure.code !== undefined && /CERT|SIGNATURE|^ERR_TLS|^ERR_SSL/.test(failure.code))
    return `the server at ${server} failed sslmode=${sslmode}: ${failure.message} (${failure.code})`;
  return null;
}

/**
 * Connect to a PostgreSQL store: for writing (the schema created and migrated
 * as needed), or read-only (it must already be an arena store; nothing is
 * created and every transaction is READ ONLY).
 *
 * @internal the PostgreSQL store's own helper.
 * @example
 * ```ts
 * const connection = openPostgresConnection('postgres://arena@127.0.0.1:5432/arena', config, { readonly: true });
 * ```
 */
export function openPostgresConnection(
  display: string,
  config: ConnectionConfig,
  options: PostgresOpenOptions = {},
): SyncConnection {
  const busyTimeoutMs = options.busyTimeoutMs ?? 30_000;
  // session settings as connection options: a session opened again after a lost one has them too
  const settings = [`-c lock_timeout=${Math.max(1, Math.round(busyTimeoutMs))}`];
  if (options.readonly === true) settings.push('-c default_transaction_read_only=on');
  const connection = openSyncConnection(
    { ...config, options: settings.join(' ') },
    busyTimeoutMs + config.connectTimeoutMs + 30_000,
  );
  try {
    if (options.readonly === true) {
      const version = schemaVersion(connection);
      if (version === null) throw new StoreNotFoundError(`${display} (no arena store there yet)`);
      if (version > postgresMigrations.length) {
        throw new StoreSchemaError(display, version, postgresMigrations.length);
      }
    } else migrate(connection, display, config.user);
    requireWrites(connection, display, config.user, options.requiredWrites ?? []);
    return failingClearly(connection, display, config);
  } catch (error) {
    connection.close();
    throw connectionError(display, config, error);
  }
}

/**
 * Whether the session's user may make each write, one row (`granted`) a write
 * in order: DELETE is granted on a table only; INSERT and UPDATE may be
 * granted on some of its columns. Its parameters: `writesGrantedParams`.
 */
export const writesGrantedSql = `SELECT CASE WHEN t.privilege = 'DELETE' THEN has_table_privilege(current_user, t.name, t.privilege)
       ELSE has_any_column_privilege(current_user, t.name, t.privilege) END AS granted
     FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(name, privilege, position)
     ORDER BY t.position`;

/** The parameters of `writesGrantedSql` for `writes`. */
export const writesGrantedParams = (writes: readonly TableWrite[]): [string[], string[]] => [
  writes.map((each) => each.table),
  writes.map((each) => each.privilege),
];

/** Refuse a user that lacks any of `writes` (a column grant counts), naming every one it lacks. */
function requireWrites(
  connection: SyncConnection,
  display: string,
  user: string,
  writes: readonly TableWrite[],
): void {
  if (writes.length === 0) return;
  const granted = connection.query<{ granted: boolean }>(
    writesGrantedSql,
    writesGrantedParams(writes),
  ).rows;
  const missing = writes.filter((_each, index) => granted[index]?.granted !== true);
  if (missing.length === 0) return;
  const list = missing.map((each) => `${each.privilege} ${each.table}`).join(', ');
  throw new StorePermissionError(display, user, `may not ${list}`);
}

/** The schema version, or `null` when the database has no arena store. */
function schemaVersion(connection: SyncConnection): number | null {
  const exists = connection.query<{ found: string | null }>(
    "SELECT to_regclass('arena_schema')::text AS found",
  ).rows[0];
  if (exists?.found === null || exists?.found === undefined) return null;
  return (
    connection.query<{ version: number }>('SELECT version FROM arena_schema').rows[0]?.version ?? 0
  );
}

function migrate(connection: SyncConnection, display: string, user: string): void {
  connection.query('BEGIN');
  try {
    connection.query(`SELECT pg_advisory_xact_lock(${migrationLockKey})`);
    const found = schemaVersion(connection);
    const version = found ?? 0;
    if (version > postgresMigrations.length) {
      throw new StoreSchemaError(display, version, postgresMigrations.length);
    }
    // an up-to-date schema is not written to: a role without DDL rights (worker, submitter) opens it
    if (version < postgresMigrations.length) {
      try {
        createAndMigrate(connection, display, version);
      } catch (error) {
        throw migrationDenied(display, user, found, error);
      }
    }
    connection.query('COMMIT');
  } catch (error) {
    try {
      connection.query('ROLLBACK');
    } catch {
      // the connection itself failed: the server rolls back on its own
    }
    throw error;
  }
}

function createAndMigrate(connection: SyncConnection, display: string, version: number): void {
  if (version === 0) {
    const foreign = connection.query<{ found: string | null }>(
      "SELECT to_regclass('runs')::text AS found",
    ).rows[0];
    if (foreign?.found !== null && foreign?.found !== undefined) {
      throw new StoreOpenError(
        display,
        'a database with a runs table of its own, not an arena store',
      );
    }
    connection.query('CREATE TABLE IF NOT EXISTS arena_schema (version INTEGER NOT NULL)');
    connection.query('INSERT INTO arena_schema (version) VALUES (0)');
  }
  // no parameters: pg sends each migration as one simple query, so it may hold many statements
  for (const migration of postgresMigrations.slice(version)) connection.query(migration);
  connection.query(`UPDATE arena_schema SET version = ${postgresMigrations.length}`);
}

/** A role that may not create or migrate the schema (42501) as one line saying who must; other failures as they are. */
function migrationDenied(
  display: string,
  user: string,
  version: number | null,
  error: unknown,
): unknown {
  if (!(error instanceof PgQueryError) || error.failure.code !== '42501') return error;
  const state =
    version === null
      ? 'holds no arena store yet'
      : `holds an arena store of schema version ${version}, this arena needs ${postgresMigrations.length}`;
  return new StoreOpenError(
    display,
    `${state}, and user '${user}' may not create or change its tables (42501: ${error.failure.message}); open it once as the role that owns them (docs/postgres/roles.sql)`,
    { cause: error },
  );
}

const lostCodes = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNREFUSED',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
]);

/**
 * Whether a failure is the connection's (the server went away), not the statement's.
 *
 * @internal the PostgreSQL adapters' own helper.
 * @example
 * ```ts
 * connectionLost({ message: 'terminating connection due to administrator command', code: '57P01', constraint: undefined }); // true
 * connectionLost({ message: 'duplicate key value', code: '23505', constraint: 'runs_pkey' }); // false
 * ```
 */
export function connectionLost(failure: PgFailure): boolean {
  return (
    (failure.code !== undefined &&
      (lostCodes.has(failure.code) || failure.code.startsWith('08'))) ||
    /Connection terminated|not queryable/.test(failure.message)
  );
}

/** The connection, with a lost server turned into one line that names it. */
function failingClearly(
  connection: SyncConnection,
  display: string,
  config: ConnectionConfig,
): SyncConnection {
  return {
    query(sql, params) {
      try {
        return connection.query(sql, params);
      } catch (error) {
        if (error instanceof PgQueryError && connectionLost(error.failure)) {
          throw new StoreConnectionError(display, `${config.host}:${config.port}`, error.failure, {
            cause: error,
          });
        }
        if (error instanceof PgQueryError && error.failure.code === '42501') {
          const refused = `was refused: ${error.failure.message} (42501)`;
          throw new StorePermissionError(display, config.user, refused, { cause: error });
        }
        throw error;
      }
    },
    close: () => connection.close(),
  };
}
