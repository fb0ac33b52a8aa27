import { channel } from 'node:diagnostics_channel';
import pg from 'pg';
import { type Clock, systemClock } from '../../runtime/clock.js';
import { createRunIdGenerator, type RunIdGenerator } from '../../runtime/runId.js';
import {
  countingVerdicts,
  type JudgeStoreDialect,
  judgeStoreOver,
  judgeTablesMissing,
  type VerdictInsert,
} from '../core/judgeStoreCore.js';
import type { JudgeStore } from '../judgeStore.js';
import type { TableWrite } from '../storeErrors.js';
import { StoreConnectionError } from './postgresErrors.js';
import { connectionLost, writesGrantedParams, writesGrantedSql } from './postgresOpen.js';
import { postgresMigrations } from './postgresSchema.js';
import { firstConnecting, pgSsl } from './postgresTls.js';
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
  /** The writes the command needs of the store's tables: a role without them is refused at the open. */
  readonly requiredWrites?: readonly TableWrite[];
}

/**
 * Each statement the judge store sends, published (its SQL) when someone
 * listens: benchmarks count the statements a case costs (`bench/_cpu.mjs`).
 */
const statementSent = channel('arena.judgeStore.statement');

/** The first schema version with the judge tables (migration 3). */
const judgeSchemaVersion = 3;

// BIGINT (seq, COUNT(*)) as a number: seq stays far below 2^53
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20
      ? Number
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

// One statement for a whole batch, so one transaction and one round trip: it locks the run's row
// once (the inserts read it), which orders it against a cancel and the run's other batches, then
// inserts the verdicts and their cache entries from arrays (one statement text whatever the batch's
// size), counts the new ones with one update and ends the run on its last verdict.
const recordVerdictsSql = `WITH run AS (
     SELECT status FROM evaluation_runs WHERE evaluation_run_id = $1 FOR UPDATE
   ), given AS (
     SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[], $8::text[],
       $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::boolean[])
       WITH ORDINALITY AS g(case_key, judge_name, result, status, from_cache, worker, cache_key,
         prompt_sha256, model, judge_version, rubric_version, cacheable, position)
   ), inserted AS (
     INSERT INTO verdicts (evaluation_run_id, case_key, judge_name, result, status, from_cache,
       worker, recorded_at)
     SELECT $1, g.case_key, g.judge_name, g.result, g.status, g.from_cache, g.worker, $2
     FROM given g, run WHERE run.status = 'running' ORDER BY g.position
     ON CONFLICT (evaluation_run_id, case_key, judge_name) DO NOTHING
     RETURNING case_key, judge_name
   ), cached AS (
     INSERT INTO verdict_cache (cache_key, prompt_sha256, model, judge_version, rubric_version,
       result, created_at)
     SELECT DISTINCT ON (g.cache_key) g.cache_key, g.prompt_sha256, g.model, g.judge_version,
       g.rubric_version, g.result, $2
     FROM given g JOIN inserted i ON i.case_key = g.case_key AND i.judge_name = g.judge_name
     WHERE g.cacheable ORDER BY g.cache_key, g.position
     ON CONFLICT (cache_key) DO NOTHING
   ), counted AS (
     UPDATE evaluation_runs SET ${countingVerdicts('(SELECT COUNT(*) FROM inserted)', '$2')}
     WHERE evaluation_run_id = $1 AND EXISTS (SELECT 1 FROM inserted)
   )
   SELECT (SELECT status FROM run) AS status,
     ARRAY(SELECT g.position::integer FROM given g
       JOIN inserted i ON i.case_key = g.case_key AND i.judge_name = g.judge_name) AS inserted`;

/** The columns of `recordVerdictsSql`'s arrays, `$3` … `$14` in order. */
const verdictColumns = [
  'caseKey',
  'judgeName',
  'result',
  'status',
  'fromCache',
  'worker',
  'cacheKey',
  'promptSha256',
  'model',
  'judgeVersion',
  'rubricVersion',
  'cacheable',
] as const satisfies readonly (keyof VerdictInsert)[];

/** The parameters of `recordVerdictsSql`: the run, the time, then one array per column. */
function recordVerdictsParams(
  evaluationRunId: string,
  verdicts: readonly VerdictInsert[],
  recordedAt: string,
): unknown[] {
  return [
    evaluationRunId,
    recordedAt,
    ...verdictColumns.map((column) => verdicts.map((verdict) => verdict[column])),
  ];
}

/**
 * Open the judge store in a PostgreSQL store database, migrating it first as
 * the run store does. Queries go through a `pg.Pool` and never block the
 * event loop, so many judgements in flight record their verdicts at once.
 * Every write is one statement, so one transaction; a batch of verdicts
 * (`recordVerdicts`) locks the evaluation run's row once (`SELECT … FOR
 * UPDATE`), so "only while running" and "the last verdict finishes the run"
 * hold across connections and machines.
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
  const server = `${config.host}:${config.port}`;
  const lockTimeoutMs = Math.max(1, Math.round(options.busyTimeoutMs ?? 30_000));
  const serverOptions = [`-c lock_timeout=${lockTimeoutMs}`];
  if (readonly) serverOptions.push('-c default_transaction_read_only=on');
  const connection = {
    host: config.host,
    port: config.port,
    user: config.user,
    database: config.database,
    ...(config.password !== undefined ? { password: config.password } : {}),
    connectionTimeoutMillis: config.connectTimeoutMs,
    options: serverOptions.join(' '),
    types,
  };
  // the pool's sessions take the sslmode's first attempt that connects, as one libpq session would;
  // the probe also looks whether the schema is current and the role may write what it needs
  let ready = false;
  const probe = () =>
    firstConnecting(config.tls, async (attempt) => {
      const client = new pg.Client({ ...connection, ssl: pgSsl(attempt) });
      try {
        await client.connect();
        ready = await schemaReady(client, options.requiredWrites ?? []).catch(() => false);
      } finally {
        await client.end().catch(() => undefined);
      }
    });
  let tls = await probe().catch(() => null);
  if (tls === null || !ready) {
    // the run store's open migrates (or checks) the schema, with its clear connection errors
    // and refusals; a current schema skips it (it opens a synchronous connection in a thread),
    // and skips loading the run store too
    const { openPostgresStore } = await import('./postgresStore.js');
    openPostgresStore(uri, {
      readonly,
      ...(options.requiredWrites !== undefined ? { requiredWrites: options.requiredWrites } : {}),
      ...(options.connectTimeoutMs !== undefined
        ? { connectTimeoutMs: options.connectTimeoutMs }
        : {}),
    }).close();
    tls ??= await probe();
  }
  const pool = new pg.Pool({
    ...connection,
    ssl: pgSsl(tls),
    max: options.maxConnections ?? 8,
    // an unclosed store must not keep the process alive, as the run store's worker thread does not
    allowExitOnIdle: true,
  });
  // an idle connection the server dropped: the pool discards it, the next query reconnects
  pool.on('error', () => {});

  const named = preparedNames();
  /** A lost server becomes the store's connection error; a statement's error passes through. */
  const rows = async <Row>(sql: string, params: readonly unknown[]): Promise<Row[]> => {
    if (statementSent.hasSubscribers) statementSent.publish(sql);
    try {
      const name = named(sql);
      const query = { text: sql, values: params as unknown[], ...(name ? { name } : {}) };
      return (await pool.query(query)).rows as Row[];
    } catch (error) {
      const failure = pgFailure(error);
      if (failure === null || !connectionLost(failure)) throw error;
      throw new StoreConnectionError(display, server, failure, { cause: error });
    }
  };

  const version = (await rows<{ version: number }>('SELECT version FROM arena_schema', []))[0]
    ?.version;
  if (version === undefined || version < judgeSchemaVersion) {
    await pool.end();
    throw judgeTablesMissing(display, version ?? 0);
  }

  const dialect: JudgeStoreDialect = {
    where: display,
    all: rows,
    get: async <Row>(sql: string, params: readonly unknown[]) => (await rows<Row>(sql, params))[0],
    async recordVerdicts(evaluationRunId, verdicts, recordedAt) {
      const [written] = await rows<{ status: string | null; inserted: number[] }>(
        recordVerdictsSql,
        recordVerdictsParams(evaluationRunId, verdicts, recordedAt),
      );
      // the positions (from 1) of the batch's verdicts that were inserted
      const positions = new Set(written?.inserted ?? []);
      return {
        status: written?.status ?? null,
        inserted: verdicts.map((_, index) => positions.has(index + 1)),
      };
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
  return judgeStoreOver(dialect, {
    readonly,
    clock: options.clock ?? systemClock,
    newRunId: options.newRunId ?? createRunIdGenerator(),
  });
}

/** How many statement texts a store prepares: past them (a cases insert of each size), statements are sent unnamed. */
const preparedTexts = 64;

/**
 * The name each statement text is prepared under in every session of the
 * pool (parsed and planned once a session, not once a call: a batch of
 * verdicts cost more to parse and plan than to run), or `undefined`.
 */
function preparedNames(): (sql: string) => string | undefined {
  const names = new Map<string, string>();
  return (sql) => {
    let name = names.get(sql);
    if (name === undefined && names.size < preparedTexts) {
      name = `arena_judge_${names.size + 1}`;
      names.set(sql, name);
    }
    return name;
  };
}

/** Whether the store's schema is current and the session's user may make every write in `writes`. */
async function schemaReady(client: pg.Client, writes: readonly TableWrite[]): Promise<boolean> {
  const found = await client.query<{ found: string | null }>(
    "SELECT to_regclass('arena_schema')::text AS found",
  );
  if (found.rows[0]?.found == null) return false;
  const version = await client.query<{ version: number }>('SELECT version FROM arena_schema');
  if (version.rows[0]?.version !== postgresMigrations.length) return false;
  if (writes.length === 0) return true;
  const granted = await client.query<{ granted: boolean }>(
    writesGrantedSql,
    writesGrantedParams(writes),
  );
  return writes.every((_each, index) => granted.rows[index]?.granted === true);
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
