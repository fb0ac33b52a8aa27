import { type Clock, systemClock } from '../../runtime/clock.js';
import { createRunIdGenerator, type RunIdGenerator } from '../../runtime/runId.js';
import { runStoreOver } from '../core/runStoreCore.js';
import type { DialectRunSql } from '../core/runStoreDialect.js';
import { recordColumns, sharedRunSql } from '../core/runStoreSql.js';
import type { SqlConnection } from '../core/sqlConnection.js';
import type { RunStore } from '../store.js';
import { openPostgresConnection, type PostgresOpenOptions } from './postgresOpen.js';
import { parsePostgresUri } from './postgresUri.js';
import type { SyncConnection } from './syncConnection.js';

/** What a PostgreSQL store is opened with: the SQLite store's options, plus how long connecting may take. */
export interface PostgresStoreOptions extends PostgresOpenOptions {
  clock?: Clock;
  newRunId?: RunIdGenerator;
}

const phaseExists = 'EXISTS (SELECT 1 FROM phases WHERE run_id = $1 AND phase_index = $2)';

/**
 * PostgreSQL's text of the statements the databases write differently; its
 * row locks are what `openPostgresStore` describes (a read-only transaction
 * may lock nothing). An insert never raises on its key: a failed statement
 * would abort the caller's whole transaction, where SQLite fails only the
 * statement.
 */
function postgresRunSql(readonly: boolean): DialectRunSql {
  return {
    lockRun: `${sharedRunSql.getRun} FOR UPDATE`,
    shareRun: readonly ? sharedRunSql.getRun : `${sharedRunSql.getRun} FOR SHARE`,
    // transaction-local: checked by the role rules of schema 9 (postgresRoleRules.ts)
    presentLease: `SELECT set_config('arena.lease', $1::text || ':' || $2::bigint::text, true) AS presented`,
    // COLLATE "C": byte order, as SQLite sorts, whatever the database's locale; LIMIT NULL: all
    listRuns: `SELECT * FROM runs ORDER BY started_at COLLATE "C" DESC, run_id COLLATE "C" DESC LIMIT $1`,
    insertPhase: `INSERT INTO phases (${recordColumns.phases}, status, episodes)
       SELECT $1, $2::integer, $3, $4, $5, 'running', 0
       WHERE EXISTS (SELECT 1 FROM runs WHERE run_id = $1)
       ON CONFLICT (run_id, phase_index) DO NOTHING RETURNING *`,
    insertEpisode: `INSERT INTO episodes (${recordColumns.episodes})
       SELECT $1, $2::integer, $3::integer, $4, $5::boolean, $6::double precision, $7::integer, $8, $9
       WHERE ${phaseExists} ON CONFLICT DO NOTHING`,
    insertCheckpoint: `INSERT INTO checkpoints (${recordColumns.checkpoints})
       SELECT $1, $2::integer, $3::integer, $4::integer, $5, $6, $7, $8
       WHERE ${phaseExists} ON CONFLICT DO NOTHING`,
    insertMetaDecision: `INSERT INTO meta_decisions (${recordColumns.metaDecisions})
       SELECT $1, $2::integer, $3::integer, $4::integer, $5, $6, $7
       WHERE ${phaseExists} ON CONFLICT DO NOTHING`,
    saveSnapshot: `INSERT INTO snapshots (${recordColumns.snapshots})
       SELECT $1, $2::integer, $3::integer, $4, $5 WHERE ${phaseExists}
       ON CONFLICT (run_id, phase_index, episode)
       DO UPDATE SET created_at = excluded.created_at, state = excluded.state`,
  };
}

/** The store core's connection on one PostgreSQL connection: transactions are BEGIN … COMMIT, nested ones savepoints (as better-sqlite3 nests). */
function postgresRunConnection(connection: SyncConnection): SqlConnection {
  let depth = 0;
  return {
    all: <Row>(sql: string, params: readonly unknown[] = []) =>
      connection.query<Row>(sql, params).rows,
    get: <Row>(sql: string, params: readonly unknown[] = []) =>
      connection.query<Row>(sql, params).rows[0],
    run: (sql, params = []) => connection.query(sql, params).rowCount,
    transaction<T>(work: () => T): T {
      const savepoint = `arena_${depth}`;
      connection.query(depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
      depth++;
      try {
        const result = work();
        connection.query(depth === 1 ? 'COMMIT' : `RELEASE SAVEPOINT ${savepoint}`);
        return result;
      } catch (error) {
        try {
          connection.query(
            depth === 1
              ? 'ROLLBACK'
              : `ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}`,
          );
        } catch {
          // a lost connection: the server rolls the transaction back itself
        }
        throw error;
      } finally {
        depth--;
      }
    },
    close: () => connection.close(),
  };
}

/**
 * Open (creating and migrating if needed) a run store in a PostgreSQL
 * database: `postgres://user[:password]@host[:port]/database`. It behaves as
 * the SQLite store does, method for method: the same records, ordering and
 * errors, and equal JSON values read back equal.
 *
 * Each store handle has one dedicated connection, in a worker thread; every
 * call blocks until PostgreSQL has answered, so the port stays synchronous
 * and `transaction(work)` is BEGIN … COMMIT on that connection (nested ones
 * are savepoints). Writers that SQLite serialises with its write lock lock
 * the run's row here (`SELECT … FOR UPDATE`: lease, resume, truncate,
 * rewind), and a fenced write (`requireLease` in a transaction) holds the
 * row `FOR SHARE`, so a lease cannot change hands until it commits.
 *
 * @example
 * ```ts
 * const store = openPostgresStore('postgres://arena@127.0.0.1:5432/arena');
 * const run = store.createRun({ uid: 'grid', seed: 42, runFile: yamlText, runFilePath: '/w/run.yaml' });
 * store.getRun(run.runId).status; // 'running'
 * store.close();
 * ```
 */
export function openPostgresStore(uri: string, options: PostgresStoreOptions = {}): RunStore {
  const { config, display } = parsePostgresUri(uri, options.connectTimeoutMs);
  const readonly = options.readonly === true;
  const connection = openPostgresConnection(display, config, options);
  return runStoreOver(
    { ...postgresRunConnection(connection), sql: postgresRunSql(readonly) },
    {
      readonly,
      clock: options.clock ?? systemClock,
      newRunId: options.newRunId ?? createRunIdGenerator(),
    },
  );
}
