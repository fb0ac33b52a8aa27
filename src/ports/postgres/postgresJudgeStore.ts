import pg from 'pg';
import type { JudgeResult } from '../../domain/judge/result.js';
import { type Clock, systemClock } from '../clock.js';
import {
  EvaluationRunNotFoundError,
  type EvaluationRunRecord,
  type JudgeStore,
  type NewVerdict,
} from '../judgeStore.js';
import { createRunIdGenerator, type RunIdGenerator } from '../runId.js';
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
import { StoreConnectionError } from './postgresErrors.js';
import { connectionLost } from './postgresOpen.js';
import { openPostgresStore } from './postgresStore.js';
import { parsePostgresUri } from './postgresUri.js';
import type { PgFailure } from './syncConnection.js';

/** How a PostgreSQL judge store is opened. */
export interface PostgresJudgeStoreOptions {
  /** Read only: never create or migrate the schema; every transaction is READ ONLY. */
  readonly readonly?: boolean;
  /** Timestamps of runs and verdicts (tests inject a fixed one). */
  readonly clock?: Clock;
  /** Makes evaluation run ids from the judge name and the creation time. */
  readonly newRunId?: RunIdGenerator;
  /** Connections in the pool: how many verdicts may be written at once (default 8). */
  readonly maxConnections?: number;
  /** How long a write waits for another writer's row lock before it fails (default 30 s). */
  readonly busyTimeoutMs?: number;
  /** How long connecting may take (default 10 s). */
  readonly connectTimeoutMs?: number;
}

/** How many fresh ids `createEvaluationRun` tries before a collision is an error. */
const idAttempts = 8;

/** The first schema version with the judge tables (migration 3). */
const judgeSchemaVersion = 3;

// BIGINT (seq, COUNT(*)) as a number: seq stays far below 2^53
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20
      ? Number
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Open the judge store in a PostgreSQL store database, migrating it first as
 * the run store does. Queries go through a `pg.Pool` and never block the
 * event loop, so many judgements in flight record their verdicts at once.
 * Every write is one transaction; `recordVerdict` locks the evaluation run's
 * row (`SELECT … FOR UPDATE`), so "only while running" and "the last verdict
 * finishes the run" hold across connections and machines.
 *
 * @example
 * ```ts
 * const store = await openPostgresJudgeStore('postgres://arena@127.0.0.1:5432/arena');
 * await store.recordVerdict({ evaluationRunId, caseKey, judgeName: 'quality', result, fromCache: false, worker: 'w1' });
 * // 'recorded' (or 'duplicate' for a redelivered case)
 * await store.close();
 * ```
 */
export async function openPostgresJudgeStore(
  uri: string,
  options: PostgresJudgeStoreOptions = {},
): Promise<JudgeStore> {
  const { config, display } = parsePostgresUri(uri, options.connectTimeoutMs);
  const readonly = options.readonly === true;
  // the run store's open migrates (or checks) the schema, with its clear connection errors
  openPostgresStore(uri, {
    readonly,
    ...(options.connectTimeoutMs !== undefined
      ? { connectTimeoutMs: options.connectTimeoutMs }
      : {}),
  }).close();
  const clock = options.clock ?? systemClock;
  const newRunId = options.newRunId ?? createRunIdGenerator();
  const now = (): string => clock.now().toISOString();
  const server = `${config.host}:${config.port}`;
  const lockTimeoutMs = Math.max(1, Math.round(options.busyTimeoutMs ?? 30_000));
  const serverOptions = [`-c lock_timeout=${lockTimeoutMs}`];
  if (readonly) serverOptions.push('-c default_transaction_read_only=on');
  const pool = new pg.Pool({
    host: config.host,
    port: config.port,
    user: config.user,
    database: config.database,
    ...(config.password !== undefined ? { password: config.password } : {}),
    connectionTimeoutMillis: config.connectTimeoutMs,
    max: options.maxConnections ?? 8,
    options: serverOptions.join(' '),
    types,
    // an unclosed store must not keep the process alive, as the run store's worker thread does not
    allowExitOnIdle: true,
  });
  // an idle connection the server dropped: the pool discards it, the next query reconnects
  pool.on('error', () => {});

  /** A lost server becomes the store's connection error; a statement's error passes through. */
  const clear = (error: unknown): unknown => {
    const failure = pgFailure(error);
    if (failure === null || !connectionLost(failure)) return error;
    return new StoreConnectionError(display, server, failure, { cause: error });
  };
  const query = async <Row extends pg.QueryResultRow>(
    sql: string,
    params: readonly unknown[],
    client: pg.Pool | pg.PoolClient = pool,
  ): Promise<pg.QueryResult<Row>> => {
    try {
      return await client.query<Row>(sql, params as unknown[]);
    } catch (error) {
      throw clear(error);
    }
  };
  const transaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw clear(error);
    }
    try {
      await query('BEGIN', [], client);
      const result = await work(client);
      await query('COMMIT', [], client);
      client.release();
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
        client.release();
      } catch (rollbackError) {
        // the connection itself failed: the server rolls back, and the client is not reused
        client.release(rollbackError instanceof Error ? rollbackError : true);
      }
      throw error;
    }
  };
  const writable = (what: string): void => {
    if (readonly) throw new StoreReadOnlyError(what);
  };

  const version = (await query<{ version: number }>('SELECT version FROM arena_schema', [])).rows[0]
    ?.version;
  if (version === undefined || version < judgeSchemaVersion) {
    await pool.end();
    throw new StoreOpenError(
      display,
      `schema version ${version ?? 0} has no evaluation runs yet; open it once for writing (arena judge) to migrate it`,
    );
  }

  const runRow = async (
    evaluationRunId: string,
    client: pg.Pool | pg.PoolClient = pool,
    lock = '',
  ): Promise<EvaluationRunRow> => {
    const row = (
      await query<EvaluationRunRow>(
        `SELECT * FROM evaluation_runs WHERE evaluation_run_id = $1 ${lock}`,
        [evaluationRunId],
        client,
      )
    ).rows[0];
    if (row === undefined) throw new EvaluationRunNotFoundError(evaluationRunId, display);
    return row;
  };
  const hasVerdict = async (
    verdict: Pick<NewVerdict, 'evaluationRunId' | 'caseKey' | 'judgeName'>,
    client: pg.Pool | pg.PoolClient = pool,
  ): Promise<boolean> =>
    (
      await query(
        'SELECT 1 FROM verdicts WHERE evaluation_run_id = $1 AND case_key = $2 AND judge_name = $3',
        [verdict.evaluationRunId, verdict.caseKey, verdict.judgeName],
        client,
      )
    ).rows.length > 0;
  /** In a transaction holding the run's row: a running run whose verdicts are all in succeeds. */
  const succeedIfComplete = async (row: EvaluationRunRow, client: pg.PoolClient): Promise<void> => {
    if (row.status !== 'running' || !allVerdictsIn(row.verdicts_recorded, row.cases_total)) return;
    await query(
      `UPDATE evaluation_runs SET status = 'succeeded', ended_at = $2 WHERE evaluation_run_id = $1`,
      [row.evaluation_run_id, now()],
      client,
    );
  };
  const finishRun = async (
    evaluationRunId: string,
    status: 'cancelled' | 'failed',
    error: string | null,
  ): Promise<EvaluationRunRecord> => {
    writable(`mark an evaluation run ${status}`);
    return transaction(async (client) => {
      const row = await runRow(evaluationRunId, client, 'FOR UPDATE');
      if (row.status !== 'running') return evaluationRunFromRow(row);
      await query(
        `UPDATE evaluation_runs SET status = $2, ended_at = $3, error = $4 WHERE evaluation_run_id = $1`,
        [evaluationRunId, status, now(), error],
        client,
      );
      return evaluationRunFromRow(await runRow(evaluationRunId, client));
    });
  };

  return {
    async createEvaluationRun(run) {
      writable('create an evaluation run');
      const createdAt = now();
      // the id's last 4 hex digits are random: two runs created in one second may collide
      for (let attempt = 1; attempt <= idAttempts; attempt++) {
        const id = newRunId(run.judgeName, new Date(createdAt));
        const inserted = await query<EvaluationRunRow>(
          `INSERT INTO evaluation_runs (evaluation_run_id, status, judge_name, judge_config, config_dir,
             cases_file, cases_sha256, cache, cases_total, malformed_lines, created_at)
           VALUES ($1, 'running', $2, $3, $4, $5, $6, $7, NULL, 0, $8)
           ON CONFLICT (evaluation_run_id) DO NOTHING RETURNING *`,
          [
            id,
            run.judgeName,
            encodeStoredJson(run.judgeConfig),
            run.configDir,
            run.casesFile,
            run.casesSha256,
            run.cache,
            createdAt,
          ],
        );
        const row = inserted.rows[0];
        if (row !== undefined) return evaluationRunFromRow(row);
      }
      throw new DuplicateRecordError(`every one of ${idAttempts} fresh evaluation run ids`);
    },
    async getEvaluationRun(evaluationRunId) {
      return evaluationRunFromRow(await runRow(evaluationRunId));
    },
    async setCasesTotal(evaluationRunId, casesTotal, malformedLines) {
      requireInteger('casesTotal', { casesTotal }, 0);
      requireInteger('malformedLines', { malformedLines }, 0);
      writable('record the cases total');
      return transaction(async (client) => {
        await runRow(evaluationRunId, client, 'FOR UPDATE');
        await query(
          'UPDATE evaluation_runs SET cases_total = $2, malformed_lines = $3 WHERE evaluation_run_id = $1',
          [evaluationRunId, casesTotal, malformedLines],
          client,
        );
        await succeedIfComplete(await runRow(evaluationRunId, client), client);
        return evaluationRunFromRow(await runRow(evaluationRunId, client));
      });
    },
    cancelEvaluationRun: (evaluationRunId) => finishRun(evaluationRunId, 'cancelled', null),
    failEvaluationRun: (evaluationRunId, error) => finishRun(evaluationRunId, 'failed', error),
    async hasVerdict(evaluationRunId, caseKey, judgeName) {
      return hasVerdict({ evaluationRunId, caseKey, judgeName });
    },
    async recordVerdict(verdict) {
      writable('record a verdict');
      const at = now();
      const entry = verdict.cacheEntry;
      const cacheable = entry !== undefined && verdict.result.status !== 'error';
      // One statement, so one transaction and one round trip: it locks the run's row first (the
      // inserts read it), which orders it against a cancel and the run's other verdicts, then
      // inserts the verdict and its cache entry, counts it and ends the run on its last verdict.
      const outcome = (
        await query<{ status: string | null; recorded: boolean }>(
          `WITH run AS (
             SELECT status FROM evaluation_runs WHERE evaluation_run_id = $1 FOR UPDATE
           ), inserted AS (
             INSERT INTO verdicts (evaluation_run_id, case_key, judge_name, result, status, from_cache,
               worker, recorded_at)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8 FROM run WHERE run.status = 'running'
             ON CONFLICT (evaluation_run_id, case_key, judge_name) DO NOTHING
             RETURNING 1
           ), cached AS (
             INSERT INTO verdict_cache (cache_key, prompt_sha256, model, judge_version, rubric_version,
               result, created_at)
             SELECT $9::text, $10::text, $11::text, $12::text, $13::text, $4, $8
             WHERE $14::boolean AND EXISTS (SELECT 1 FROM inserted)
             ON CONFLICT (cache_key) DO NOTHING
           ), counted AS (
             UPDATE evaluation_runs
             SET verdicts_recorded = verdicts_recorded + 1,
               status = CASE WHEN verdicts_recorded + 1 >= cases_total THEN 'succeeded' ELSE status END,
               ended_at = CASE WHEN verdicts_recorded + 1 >= cases_total THEN $8 ELSE ended_at END
             WHERE evaluation_run_id = $1 AND EXISTS (SELECT 1 FROM inserted)
             RETURNING 1
           )
           SELECT (SELECT status FROM run) AS status, EXISTS (SELECT 1 FROM counted) AS recorded`,
          [
            verdict.evaluationRunId,
            verdict.caseKey,
            verdict.judgeName,
            encodeStoredJson(verdict.result),
            verdict.result.status,
            verdict.fromCache,
            verdict.worker,
            at,
            entry?.key ?? null,
            entry?.promptSha256 ?? null,
            entry?.model ?? null,
            entry?.judgeVersion ?? null,
            entry?.rubricVersion ?? null,
            cacheable,
          ],
        )
      ).rows[0];
      const status = outcome?.status ?? null;
      if (status === null) throw new EvaluationRunNotFoundError(verdict.evaluationRunId, display);
      if (outcome?.recorded === true) return 'recorded';
      if (status === 'running') return 'duplicate';
      if (status === 'cancelled' || status === 'failed') return 'closed';
      // a succeeded run has all its verdicts (read with a fresh snapshot: the last may have just
      // committed); a case beyond its total is not one of its cases
      return (await hasVerdict(verdict)) ? 'duplicate' : 'closed';
    },
    async verdictCount(evaluationRunId) {
      return (await runRow(evaluationRunId)).verdicts_recorded;
    },
    async verdicts(evaluationRunId, { afterSeq = 0, limit }) {
      requireInteger('limit', { limit }, 0);
      requireInteger('afterSeq', { afterSeq }, 0);
      await runRow(evaluationRunId);
      const page = await query<VerdictRow>(
        'SELECT * FROM verdicts WHERE evaluation_run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
        [evaluationRunId, afterSeq, limit],
      );
      return page.rows.map(verdictFromRow);
    },
    async cachedVerdict(key) {
      const row = (
        await query<{ result: string }>('SELECT result FROM verdict_cache WHERE cache_key = $1', [
          key,
        ])
      ).rows[0];
      return row === undefined ? null : (decodeStoredJson(row.result) as unknown as JudgeResult);
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}

/** What pg or the socket said, in the fields that tell failures apart; `null` for other errors. */
function pgFailure(error: unknown): PgFailure | null {
  if (!(error instanceof Error)) return null;
  const { code, constraint } = error as Error & { code?: unknown; constraint?: unknown };
  return {
    message: error.message,
    code: typeof code === 'string' ? code : undefined,
    constraint: typeof constraint === 'string' ? constraint : undefined,
  };
}
