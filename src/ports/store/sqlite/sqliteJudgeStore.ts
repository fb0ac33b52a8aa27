import {
  countingVerdict,
  type JudgeStoreDialect,
  judgeStoreOver,
  judgeTablesMissing,
} from '../core/judgeStoreCore.js';
import type { SqlConnection } from '../core/sqlConnection.js';
import type { JudgeStore } from '../judgeStore.js';
import { sqliteConnection } from './sqliteConnection.js';
import { openSqliteStoreParts } from './sqliteOpen.js';
import { storeVersion } from './sqliteSchema.js';
import type { SqliteStoreOptions } from './sqliteStoreOptions.js';

/** How a SQLite judge store is opened. */
export type JudgeStoreOptions = SqliteStoreOptions;

/** The first schema version with the judge tables (migration 4). */
const judgeSchemaVersion = 4;

/** A verdict's recording, `$1` … `$14` as `VerdictParams` numbers them: one statement at a time, as SQLite has no writing CTEs. */
const recording = {
  runStatus: 'SELECT status FROM evaluation_runs WHERE evaluation_run_id = $1',
  insertVerdict: `INSERT INTO verdicts (evaluation_run_id, case_key, judge_name, result, status, from_cache,
       worker, recorded_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (evaluation_run_id, case_key, judge_name) DO NOTHING`,
  countVerdict: `UPDATE evaluation_runs SET ${countingVerdict} WHERE evaluation_run_id = $1`,
  putCache: `INSERT INTO verdict_cache (cache_key, prompt_sha256, model, judge_version, rubric_version,
       result, created_at)
     VALUES ($9, $10, $11, $12, $13, $4, $8)
     ON CONFLICT (cache_key) DO NOTHING`,
} as const;

/** SQLite's side of the judge store core: every call runs at once, a verdict in one `BEGIN IMMEDIATE`. */
function sqliteJudgeDialect(where: string, connection: SqlConnection): JudgeStoreDialect {
  return {
    where,
    all: connection.all,
    get: connection.get,
    recordVerdict: (params) =>
      connection.transaction(() => {
        const status = connection.get<{ status: string }>(recording.runStatus, params)?.status;
        if (status !== 'running') return { status: status ?? null, recorded: false };
        if (connection.run(recording.insertVerdict, params) === 0) {
          return { status, recorded: false };
        }
        connection.run(recording.countVerdict, params);
        const cacheable = params[13];
        if (cacheable) connection.run(recording.putCache, params);
        return { status, recorded: true };
      }),
    close: connection.close,
  };
}

/**
 * Open (creating and migrating if needed) the judge store in a SQLite store
 * file: the same file, and the same `BEGIN IMMEDIATE` write discipline, as the
 * run store, so many processes may record verdicts into one file. The port is
 * asynchronous; each call here runs synchronously and resolves at once.
 *
 * @example
 * ```ts
 * const store = openSqliteJudgeStore('.arena/arena.db');
 * const run = await store.createEvaluationRun({ judgeName: 'quality', judgeConfig, configDir, casesFile, casesSha256, cache: true });
 * run.evaluationRunId; // 'quality-20261201T110200-3fa2'
 * ```
 */
export function openSqliteJudgeStore(path: string, options: JudgeStoreOptions = {}): JudgeStore {
  const { db, clock, newRunId, readonly } = openSqliteStoreParts(path, options);
  const version = storeVersion(db);
  if (version < judgeSchemaVersion) {
    db.close();
    // only a read-only open leaves an older file as it is
    throw judgeTablesMissing(path, version);
  }
  return judgeStoreOver(sqliteJudgeDialect(path, sqliteConnection(db)), {
    readonly,
    clock,
    newRunId,
  });
}
