import type { JudgeResult } from '../../domain/judge/result.js';
import {
  EvaluationRunNotFoundError,
  type EvaluationRunRecord,
  type JudgeStore,
  type NewVerdict,
  type VerdictRecording,
} from '../judgeStore.js';
import {
  allVerdictsIn,
  type EvaluationRunRow,
  evaluationRunFromRow,
  type VerdictRow,
  verdictFromRow,
} from '../storeCore/judgeRows.js';
import { decodeStoredJson, encodeStoredJson } from '../storedJson.js';
import { DuplicateRecordError, StoreOpenError, StoreReadOnlyError } from '../storeErrors.js';
import { requireInteger } from '../storeRecordChecks.js';
import { openSqliteStoreParts } from './sqliteOpen.js';
import { storeVersion } from './sqliteSchema.js';
import type { SqliteStoreOptions } from './sqliteStoreOptions.js';

/** How a SQLite judge store is opened. */
export type JudgeStoreOptions = SqliteStoreOptions;

/** How many fresh ids `createEvaluationRun` tries before a collision is an error. */
const idAttempts = 8;

/** The first schema version with the judge tables (migration 4). */
const judgeSchemaVersion = 4;

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
  const { db, now, newRunId, readonly } = openSqliteStoreParts(path, options);
  if (storeVersion(db) < judgeSchemaVersion) {
    const version = storeVersion(db);
    db.close();
    // only a read-only open leaves an older file as it is
    throw new StoreOpenError(
      path,
      `schema version ${version} has no evaluation runs yet; open it once for writing (arena judge) to migrate it`,
    );
  }

  const read = {
    run: db.prepare<[string], EvaluationRunRow>(
      'SELECT * FROM evaluation_runs WHERE evaluation_run_id = ?',
    ),
    has: db.prepare<[string, string, string], { found: number }>(
      'SELECT 1 AS found FROM verdicts WHERE evaluation_run_id = ? AND case_key = ? AND judge_name = ?',
    ),
    page: db.prepare<[string, number, number], VerdictRow>(
      'SELECT * FROM verdicts WHERE evaluation_run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    ),
    cached: db.prepare<[string], { result: string }>(
      'SELECT result FROM verdict_cache WHERE cache_key = ?',
    ),
  };
  // write statements need the tables: a read-only store never prepares them
  const write = readonly
    ? null
    : {
        insertRun: db.prepare(
          `INSERT INTO evaluation_runs (evaluation_run_id, status, judge_name, judge_config, config_dir,
             cases_file, cases_sha256, cache, cases_total, malformed_lines, created_at)
           VALUES (@id, 'running', @judgeName, @judgeConfig, @configDir, @casesFile, @casesSha256,
             @cache, NULL, 0, @createdAt)
           ON CONFLICT (evaluation_run_id) DO NOTHING`,
        ),
        setTotal: db.prepare(
          'UPDATE evaluation_runs SET cases_total = ?, malformed_lines = ? WHERE evaluation_run_id = ?',
        ),
        finish: db.prepare(
          `UPDATE evaluation_runs SET status = ?, ended_at = ?, error = ?
           WHERE evaluation_run_id = ? AND status = 'running'`,
        ),
        insertVerdict: db.prepare(
          `INSERT INTO verdicts (evaluation_run_id, case_key, judge_name, result, status, from_cache,
             worker, recorded_at)
           VALUES (@evaluationRunId, @caseKey, @judgeName, @result, @status, @fromCache, @worker, @recordedAt)
           ON CONFLICT (evaluation_run_id, case_key, judge_name) DO NOTHING`,
        ),
        countUp: db.prepare(
          'UPDATE evaluation_runs SET verdicts_recorded = verdicts_recorded + 1 WHERE evaluation_run_id = ?',
        ),
        putCache: db.prepare(
          `INSERT INTO verdict_cache (cache_key, prompt_sha256, model, judge_version, rubric_version,
             result, created_at)
           VALUES (@key, @promptSha256, @model, @judgeVersion, @rubricVersion, @result, @createdAt)
           ON CONFLICT (cache_key) DO NOTHING`,
        ),
      };
  const writes = (what: string): NonNullable<typeof write> => {
    if (write === null) throw new StoreReadOnlyError(what);
    return write;
  };

  const runRow = (evaluationRunId: string): EvaluationRunRow => {
    const row = read.run.get(evaluationRunId);
    if (row === undefined) throw new EvaluationRunNotFoundError(evaluationRunId, path);
    return row;
  };
  const getRun = (evaluationRunId: string): EvaluationRunRecord =>
    evaluationRunFromRow(runRow(evaluationRunId));
  /** In a write transaction: a running run whose verdicts are all in succeeds. */
  const succeedIfComplete = (row: EvaluationRunRow): void => {
    if (row.status === 'running' && allVerdictsIn(row.verdicts_recorded, row.cases_total))
      writes('finish an evaluation run').finish.run(
        'succeeded',
        now(),
        null,
        row.evaluation_run_id,
      );
  };
  const finishRun = (
    evaluationRunId: string,
    status: 'cancelled' | 'failed',
    error: string | null,
  ): EvaluationRunRecord => {
    const statements = writes(`mark an evaluation run ${status}`);
    return db
      .transaction(() => {
        runRow(evaluationRunId);
        statements.finish.run(status, now(), error, evaluationRunId);
        return getRun(evaluationRunId);
      })
      .immediate();
  };

  const recordVerdict = (verdict: NewVerdict): VerdictRecording => {
    const statements = writes('record a verdict');
    return db
      .transaction((): VerdictRecording => {
        const row = runRow(verdict.evaluationRunId);
        if (row.status === 'cancelled' || row.status === 'failed') return 'closed';
        if (row.status === 'succeeded') {
          // a succeeded run has all its verdicts: a case beyond its total is not one of its cases
          const known = read.has.get(verdict.evaluationRunId, verdict.caseKey, verdict.judgeName);
          return known === undefined ? 'closed' : 'duplicate';
        }
        const at = now();
        const inserted = statements.insertVerdict.run({
          evaluationRunId: verdict.evaluationRunId,
          caseKey: verdict.caseKey,
          judgeName: verdict.judgeName,
          result: encodeStoredJson(verdict.result),
          status: verdict.result.status,
          fromCache: verdict.fromCache ? 1 : 0,
          worker: verdict.worker,
          recordedAt: at,
        });
        if (inserted.changes === 0) return 'duplicate';
        statements.countUp.run(verdict.evaluationRunId);
        const entry = verdict.cacheEntry;
        if (entry !== undefined && verdict.result.status !== 'error') {
          statements.putCache.run({
            key: entry.key,
            promptSha256: entry.promptSha256,
            model: entry.model,
            judgeVersion: entry.judgeVersion,
            rubricVersion: entry.rubricVersion,
            result: encodeStoredJson(verdict.result),
            createdAt: at,
          });
        }
        succeedIfComplete(runRow(verdict.evaluationRunId));
        return 'recorded';
      })
      .immediate();
  };

  return {
    async createEvaluationRun(run) {
      const statements = writes('create an evaluation run');
      const createdAt = now();
      const record = {
        judgeName: run.judgeName,
        judgeConfig: encodeStoredJson(run.judgeConfig),
        configDir: run.configDir,
        casesFile: run.casesFile,
        casesSha256: run.casesSha256,
        cache: run.cache ? 1 : 0,
        createdAt,
      };
      // the id's last 4 hex digits are random: two runs created in one second may collide
      for (let attempt = 1; attempt <= idAttempts; attempt++) {
        const id = newRunId(run.judgeName, new Date(createdAt));
        if (statements.insertRun.run({ ...record, id }).changes === 1) return getRun(id);
      }
      throw new DuplicateRecordError(`every one of ${idAttempts} fresh evaluation run ids`);
    },
    async getEvaluationRun(evaluationRunId) {
      return getRun(evaluationRunId);
    },
    async setCasesTotal(evaluationRunId, casesTotal, malformedLines) {
      requireInteger('casesTotal', { casesTotal }, 0);
      requireInteger('malformedLines', { malformedLines }, 0);
      const statements = writes('record the cases total');
      return db
        .transaction(() => {
          runRow(evaluationRunId);
          statements.setTotal.run(casesTotal, malformedLines, evaluationRunId);
          succeedIfComplete(runRow(evaluationRunId));
          return getRun(evaluationRunId);
        })
        .immediate();
    },
    async cancelEvaluationRun(evaluationRunId) {
      return finishRun(evaluationRunId, 'cancelled', null);
    },
    async failEvaluationRun(evaluationRunId, error) {
      return finishRun(evaluationRunId, 'failed', error);
    },
    async hasVerdict(evaluationRunId, caseKey, judgeName) {
      return read.has.get(evaluationRunId, caseKey, judgeName) !== undefined;
    },
    async recordVerdict(verdict) {
      return recordVerdict(verdict);
    },
    async verdictCount(evaluationRunId) {
      return runRow(evaluationRunId).verdicts_recorded;
    },
    async verdicts(evaluationRunId, { afterSeq = 0, limit }) {
      requireInteger('limit', { limit }, 0);
      requireInteger('afterSeq', { afterSeq }, 0);
      runRow(evaluationRunId);
      return read.page.all(evaluationRunId, afterSeq, limit).map(verdictFromRow);
    },
    async cachedVerdict(key) {
      const row = read.cached.get(key);
      return row === undefined ? null : (decodeStoredJson(row.result) as unknown as JudgeResult);
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
