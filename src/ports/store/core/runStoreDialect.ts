import type { sharedRunSql } from './runStoreSql.js';
import type { SqlConnection } from './sqlConnection.js';

/**
 * The statements whose SQL differs between the databases: how a row is
 * locked, how text sorts, and how an insert that its key refuses writes
 * nothing. Parameters are numbered as the comments say.
 */
export interface DialectRunSql {
  /** `$1` run id: the run's row, no other writer may change it before the transaction ends. */
  readonly lockRun: string;
  /** `$1` run id: the run's row, its lease held for the rest of the transaction (the fence of a write). */
  readonly shareRun: string;
  /**
   * `$1` run id, `$2` lease token: tell the database, for the rest of the
   * transaction, which lease this writer holds (PostgreSQL checks it on each
   * record a role other than the owner writes); none where nothing checks it.
   */
  readonly presentLease?: string;
  /** `$1` limit or `null` for all: runs newest first, ties by id in byte order. */
  readonly listRuns: string;
  /** `$1`… in `recordColumns.phases` order, `RETURNING *`: no row when the run is missing or the phase exists. */
  readonly insertPhase: string;
  /** `$1`… in `recordColumns.episodes` order: 0 rows when the phase is missing or the episode exists. */
  readonly insertEpisode: string;
  /** `$1`… in `recordColumns.checkpoints` order, as `insertEpisode`. */
  readonly insertCheckpoint: string;
  /** `$1`… in `recordColumns.metaDecisions` order, as `insertEpisode`. */
  readonly insertMetaDecision: string;
  /** `$1`… in `recordColumns.snapshots` order: replaces the snapshot at that barrier; 0 rows when the phase is missing. */
  readonly saveSnapshot: string;
}

/** Every statement the run store core runs, by the name the core gives it. */
export type RunSql = {
  readonly [Name in keyof typeof sharedRunSql]: (typeof sharedRunSql)[Name] extends readonly string[]
    ? readonly string[]
    : string;
} & DialectRunSql;

/**
 * What a storage gives the run store core (`runStoreOver`): a synchronous
 * connection, and its text of the statements the databases write differently.
 * A statement is whatever the connection understands: SQL for a database; a
 * storage of its own (the memory store) names every statement and answers it
 * by name, so the store's rules are still written once, in the core.
 */
export interface RunStoreDialect extends SqlConnection {
  readonly sql: DialectRunSql & Partial<RunSql>;
}
