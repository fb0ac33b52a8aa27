import { runStoreOver } from '../core/runStoreCore.js';
import type { DialectRunSql } from '../core/runStoreDialect.js';
import { recordColumns, sharedRunSql } from '../core/runStoreSql.js';
import type { RunStore } from '../store.js';
import { sqliteConnection } from './sqliteConnection.js';
import { openSqliteStoreParts } from './sqliteOpen.js';
import { storeMigrations, storeVersion } from './sqliteSchema.js';
import type { SqliteStoreOptions } from './sqliteStoreOptions.js';

/** What a store is opened with. */
export type StoreOptions = SqliteStoreOptions;

/**
 * SQLite's text of the statements the databases write differently. A write
 * transaction already holds the file's write lock (`BEGIN IMMEDIATE`), so a
 * lock is a plain read; an insert its key refuses fails with a constraint
 * error, which the connection turns into "nothing written".
 */
const sqliteRunSql: DialectRunSql = {
  lockRun: sharedRunSql.getRun,
  shareRun: sharedRunSql.getRun,
  // -1: no limit
  listRuns: 'SELECT * FROM runs ORDER BY started_at DESC, run_id DESC LIMIT COALESCE($1, -1)',
  insertPhase: `INSERT INTO phases (${recordColumns.phases}, status, episodes)
     VALUES ($1, $2, $3, $4, $5, 'running', 0) RETURNING *`,
  insertEpisode: `INSERT INTO episodes (${recordColumns.episodes})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
  insertCheckpoint: `INSERT INTO checkpoints (${recordColumns.checkpoints})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  insertMetaDecision: `INSERT INTO meta_decisions (${recordColumns.metaDecisions})
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  saveSnapshot: `INSERT INTO snapshots (${recordColumns.snapshots}) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (run_id, phase_index, episode)
     DO UPDATE SET created_at = excluded.created_at, state = excluded.state`,
};

/**
 * Open (creating and migrating if needed) a SQLite run store at `path`, or an
 * in-memory one at `':memory:'`.
 *
 * Durability: the file is in WAL mode with `synchronous = NORMAL`. A committed
 * transaction survives the process being killed (SIGKILL, a crash) the moment
 * the call that committed it returns; only an OS crash or power loss can lose
 * the last transactions, never corrupt the file.
 *
 * Concurrency: many processes may write one file. Every write transaction
 * takes the write lock up front (`BEGIN IMMEDIATE`) and waits up to
 * `busyTimeoutMs` for it, so writers queue instead of failing; readers never
 * wait for writers.
 *
 * @example
 * ```ts
 * const store = openSqliteStore('.arena/arena.db');
 * const run = store.createRun({ uid: 'grid', seed: 42, runFile: yamlText, runFilePath: 'run.yaml' });
 * run.runId; // 'grid-20261129T200702-3fa2'
 * store.getRun(run.runId).status; // 'running'
 * ```
 */
export function openSqliteStore(path: string, options: StoreOptions = {}): RunStore {
  const { db, clock, newRunId, readonly } = openSqliteStoreParts(path, options);
  const store = runStoreOver(
    { ...sqliteConnection(db), sql: sqliteRunSql },
    { readonly, clock, newRunId },
  );
  if (storeVersion(db) >= storeMigrations.length) return store;
  // a read-only file of an older schema version lacks the newer tables: it holds no resumes
  return {
    ...store,
    resumes(runId) {
      store.getRun(runId);
      return [];
    },
  };
}
