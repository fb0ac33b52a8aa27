import {
  countingVerdicts,
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

/** A batch's recording: one statement at a time, as SQLite has no writing CTEs (no round trips either). */
const recording = {
  runStatus: 'SELECT status FROM evaluation_runs WHERE evaluation_run_id = $1',
  insertVerdict: `INSERT INTO verdicts (evaluation_run_id, case_key, judge_name, result, status, from_cache,
       worker, recorded_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (evaluation_run_id, case_key, judge_name) DO NOTHING`,
  countVerdicts: `UPDATE evaluation_runs SET ${countingVerdicts('$2', '$3')} WHERE evaluation_run_id = $1`,
  putCache: `INSERT INTO verdict_cache (cache_key, prompt_sha256, model, judge_version, rubric_version,
       result, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (cache_key) DO NOTHING`,
} as const;

/** SQLite's side of the judge store core: every call runs at once, a batch in one `BEGIN IMMEDIATE`. */
function sqliteJudgeDialect(where: string, connection: SqlConnection): JudgeStoreDialect {
  return {
    where,
    all: connection.all,
    get: connection.get,
    recordVerdicts: (evaluationRunId, verdicts, recordedAt) =>
      connection.transaction(() => {
        const status = connection.get<{ status: string }>(recording.runStatus, [
          evaluationRunId,
        ])?.status;
        if (status !== 'running') {
          return { status: status ?? null, inserted: verdicts.map(() => false) };
        }
        const inserted = verdicts.map(
          (verdict) =>
            connection.run(recording.insertVerdict, [
              evaluationRunId,
              verdict.caseKey,
              verdict.judgeName,
              verdict.result,
              verdict.status,
              verdict.fromCache,
              verdict.worker,
              recordedAt,
            ]) > 0,
        );
        const count = inserted.filter(Boolean).length;
        if (count > 0)
          connection.run(recording.countVerdicts, [evaluationRunId, count, recordedAt]);
        for (const [index, verdict] of verdicts.entries()) {
          if (!inserted[index] || !verdict.cacheable) continue;
          connection.run(recording.putCache, [
            verdict.cacheKey,
            verdict.promptSha256,
            verdict.model,
            verdict.judgeVersion,
            verdict.rubricVersion,
            verdict.result,
            recordedAt,
          ]);
        }
        return { status, inserted };
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
