import type { JudgeResult } from '../../../domain/judge/result.js';
import { arenaCommand } from '../../runtime/arenaCommand.js';
import type { Clock } from '../../runtime/clock.js';
import type { RunIdGenerator } from '../../runtime/runId.js';
import {
  type CalibrationRecord,
  EvaluationRunNotFoundError,
  type EvaluationRunRecord,
  type JudgeStore,
  type NewVerdict,
  type SequentialGateRecord,
  type StoredCase,
  type VerdictRecording,
} from '../judgeStore.js';
import { decodeStoredJson, encodeStoredJson } from '../storedJson.js';
import { DuplicateRecordError, StoreOpenError, StoreReadOnlyError } from '../storeErrors.js';
import { requireInteger } from '../storeRecordChecks.js';
import {
  type EvaluationRunRow,
  evaluationRunFromRow,
  type VerdictRow,
  verdictFromRow,
} from './judgeRows.js';

type Awaitable<T> = T | Promise<T>;

/**
 * A verdict to write, as the dialect inserts it: its result encoded, and
 * `cacheable` when it goes into the verdict cache (a cache entry came with
 * it, and it is no error). The cache columns are `null` without an entry.
 */
export interface VerdictInsert {
  readonly caseKey: string;
  readonly judgeName: string;
  readonly result: string;
  readonly status: string;
  readonly fromCache: boolean;
  readonly worker: string | null;
  readonly cacheKey: string | null;
  readonly promptSha256: string | null;
  readonly model: string | null;
  readonly judgeVersion: string | null;
  readonly rubricVersion: string | null;
  readonly cacheable: boolean;
}

/**
 * What writing a batch found: the run's status before it (`null`: no such
 * run), and for each verdict of the batch, in order, whether it was inserted.
 */
export interface VerdictsWritten {
  readonly status: string | null;
  readonly inserted: readonly boolean[];
}

/**
 * What a database gives the judge store core (`judgeStoreOver`): a way to run
 * SQL (`$1`-numbered parameters, flags as booleans), possibly asynchronous,
 * and its one atomic write of a batch of verdicts.
 */
export interface JudgeStoreDialect {
  /** Where the store is, as messages name it: a file, or a URI without its password. */
  readonly where: string;
  all<Row>(sql: string, params: readonly unknown[]): Awaitable<Row[]>;
  get<Row>(sql: string, params: readonly unknown[]): Awaitable<Row | undefined>;
  /**
   * In one transaction that holds the run's row (one lock for the batch, not
   * one per verdict): only while the run is `running`, insert the verdicts
   * (at most one per run, case and judge; the batch holds each case once),
   * count the new ones with one update (`countingVerdicts`) and put the
   * `cacheable` ones in the cache where their key is not there already.
   */
  recordVerdicts(
    evaluationRunId: string,
    verdicts: readonly VerdictInsert[],
    recordedAt: string,
  ): Awaitable<VerdictsWritten>;
  close(): Awaitable<void>;
}

/** What a judge store is, beside its database: who may write, its clock, its run ids. */
export interface JudgeStoreCoreOptions {
  readonly readonly: boolean;
  readonly clock: Clock;
  readonly newRunId: RunIdGenerator;
}

/** How many fresh ids `createEvaluationRun` tries before a collision is an error. */
const idAttempts = 8;

/** A running run whose verdicts are all in (`count` of `total`) succeeds at `at`: SET clauses of its row. */
function succeedingWhenComplete(count: string, total: string, at: string): string {
  const complete = `status = 'running' AND ${count} >= ${total}`;
  return `status = CASE WHEN ${complete} THEN 'succeeded' ELSE status END,
       ended_at = CASE WHEN ${complete} THEN ${at} ELSE ended_at END`;
}

/**
 * The SET clauses of `count` new verdicts (`at`: when they were recorded):
 * the verdict that completes the total finishes its run, in the same transaction.
 */
export const countingVerdicts = (count: string, at: string): string =>
  `verdicts_recorded = verdicts_recorded + ${count},
       ${succeedingWhenComplete(`verdicts_recorded + ${count}`, 'cases_total', at)}`;

const sql = {
  runRow: 'SELECT * FROM evaluation_runs WHERE evaluation_run_id = $1',
  insertRun: `INSERT INTO evaluation_runs (evaluation_run_id, status, judge_name, judge_config, config_dir,
       cases_file, cases_sha256, cache, cases_total, malformed_lines, created_at, keep_texts)
     VALUES ($1, 'running', $2, $3, $4, $5, $6, $7, NULL, 0, $8, $9)
     ON CONFLICT (evaluation_run_id) DO NOTHING RETURNING *`,
  setCasesTotal: `UPDATE evaluation_runs SET cases_total = $2, malformed_lines = $3,
       ${succeedingWhenComplete('verdicts_recorded', '$2', '$4')}
     WHERE evaluation_run_id = $1 RETURNING *`,
  // a finished run stays as it is: one statement, so nothing comes between the check and the write
  finishRun: `UPDATE evaluation_runs SET
       status = CASE WHEN status = 'running' THEN $2 ELSE status END,
       ended_at = CASE WHEN status = 'running' THEN $3 ELSE ended_at END,
       error = CASE WHEN status = 'running' THEN $4 ELSE error END
     WHERE evaluation_run_id = $1 RETURNING *`,
  hasVerdict:
    'SELECT 1 AS found FROM verdicts WHERE evaluation_run_id = $1 AND case_key = $2 AND judge_name = $3',
  verdicts:
    'SELECT * FROM verdicts WHERE evaluation_run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
  storedCase: 'SELECT context FROM evaluation_cases WHERE evaluation_run_id = $1 AND case_key = $2',
  unjudgedCases: `SELECT c.case_key, c.context FROM evaluation_cases c
     WHERE c.evaluation_run_id = $1 AND c.case_key > $2
       AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.evaluation_run_id = c.evaluation_run_id
         AND v.case_key = c.case_key AND v.judge_name = $3)
     ORDER BY c.case_key LIMIT $4`,
  insertCalibration: `INSERT INTO judge_calibrations (fingerprint, fingerprint_parts, judge_name,
       labels_sha256, n, kappa, kappa_lo, kappa_hi, false_pass_rate, confusion, calibrated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING calibration_id`,
  calibrationOf:
    'SELECT * FROM judge_calibrations WHERE fingerprint = $1 ORDER BY calibration_id DESC LIMIT 1',
  latestCalibration:
    'SELECT * FROM judge_calibrations WHERE judge_name = $1 ORDER BY calibration_id DESC LIMIT 1',
  saveGate: `INSERT INTO sequential_gates (evaluation_run_id, seed, total, order_sha256, folded, state,
       decision, decided_at, judged, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (evaluation_run_id) DO UPDATE SET folded = excluded.folded, state = excluded.state,
       decision = excluded.decision, decided_at = excluded.decided_at, judged = excluded.judged,
       updated_at = excluded.updated_at
     WHERE sequential_gates.decision IS NULL AND sequential_gates.folded <= excluded.folded
     RETURNING evaluation_run_id`,
  gateRow: 'SELECT * FROM sequential_gates WHERE evaluation_run_id = $1',
  runningRuns: `SELECT * FROM evaluation_runs WHERE status = 'running' ORDER BY created_at, evaluation_run_id`,
} as const;

/** One multi-row insert of cases: `count` rows of ($1 run, key, context); a key already kept stays as it is. */
const insertCases = (count: number): string =>
  `INSERT INTO evaluation_cases (evaluation_run_id, case_key, context) VALUES ${Array.from(
    { length: count },
    (_, index) => `($1, $${2 * index + 2}, $${2 * index + 3})`,
  ).join(', ')} ON CONFLICT (evaluation_run_id, case_key) DO NOTHING RETURNING case_key`;

/** Cases per insert: far below SQLite's 32,766 parameters. */
const casesPerInsert = 500;

/** `count` numbered parameters from `$first`, for an IN list. */
const parameters = (count: number, first: number): string =>
  Array.from({ length: count }, (_, index) => `$${index + first}`).join(', ');

/** One read of the cache entries under `count` keys (`$1` … `$count`). */
const cachedVerdictsOf = (count: number): string =>
  `SELECT cache_key, result FROM verdict_cache WHERE cache_key IN (${parameters(count, 1)})`;

/** One read of a run's (`$1`) cases under `count` keys (`$2` …). */
const storedCasesOf = (count: number): string =>
  `SELECT case_key, context FROM evaluation_cases WHERE evaluation_run_id = $1 AND case_key IN (${parameters(count, 2)})`;

/** Keys per read. */
const keysPerRead = 500;

/** A verdict as the dialect inserts it. */
function verdictInsert(verdict: NewVerdict): VerdictInsert {
  const entry = verdict.cacheEntry;
  return {
    caseKey: verdict.caseKey,
    judgeName: verdict.judgeName,
    result: encodeStoredJson(verdict.result),
    status: verdict.result.status,
    fromCache: verdict.fromCache,
    worker: verdict.worker,
    cacheKey: entry?.key ?? null,
    promptSha256: entry?.promptSha256 ?? null,
    model: entry?.model ?? null,
    judgeVersion: entry?.judgeVersion ?? null,
    rubricVersion: entry?.rubricVersion ?? null,
    cacheable: entry !== undefined && verdict.result.status !== 'error',
  };
}

/**
 * The judge store over one database: the port's rules (read-only refusals,
 * fresh ids, one verdict per case and judge, nothing recorded into a closed
 * run, the last verdict finishing its run, no error result in the cache)
 * written once. Both adapters are this function over their own dialect.
 *
 * @internal the judge store adapters' own core.
 * @example
 * ```ts
 * const store = judgeStoreOver(sqliteJudgeDialect(path, sqliteConnection(db)), { readonly: false, clock: systemClock, newRunId });
 * await store.recordVerdict({ evaluationRunId, caseKey, judgeName: 'quality', result, fromCache: false, worker: null });
 * // 'recorded' (or 'duplicate' for a redelivered case)
 * ```
 */
export function judgeStoreOver(db: JudgeStoreDialect, options: JudgeStoreCoreOptions): JudgeStore {
  const { readonly, clock, newRunId } = options;
  const now = (): string => clock.now().toISOString();
  const writable = (what: string): void => {
    if (readonly) throw new StoreReadOnlyError(what);
  };
  const found = (evaluationRunId: string, row: EvaluationRunRow | undefined): EvaluationRunRow => {
    if (row === undefined) throw new EvaluationRunNotFoundError(evaluationRunId, db.where);
    return row;
  };
  const runRow = async (evaluationRunId: string): Promise<EvaluationRunRow> =>
    found(evaluationRunId, await db.get<EvaluationRunRow>(sql.runRow, [evaluationRunId]));
  const hasVerdict = async (evaluationRunId: string, caseKey: string, judgeName: string) =>
    (await db.get(sql.hasVerdict, [evaluationRunId, caseKey, judgeName])) !== undefined;
  const finishRun = async (
    evaluationRunId: string,
    status: 'cancelled' | 'failed',
    error: string | null,
  ): Promise<EvaluationRunRecord> => {
    writable(`mark an evaluation run ${status}`);
    const row = await db.get<EvaluationRunRow>(sql.finishRun, [
      evaluationRunId,
      status,
      now(),
      error,
    ]);
    return evaluationRunFromRow(found(evaluationRunId, row));
  };

  /** The value of each of `keys` (`null` where there is none), read `keysPerRead` distinct keys at a time. */
  const readByKeys = async <Row, Value>(
    keys: readonly string[],
    read: { sqlOf(count: number): string; before: readonly unknown[]; key: keyof Row },
    decode: (row: Row) => Value,
  ): Promise<(Value | null)[]> => {
    const found = new Map<unknown, Value>();
    for (let start = 0; start < keys.length; start += keysPerRead) {
      const slice = [...new Set(keys.slice(start, start + keysPerRead))];
      const rows = await db.all<Row>(read.sqlOf(slice.length), [...read.before, ...slice]);
      for (const row of rows) found.set(row[read.key], decode(row));
    }
    return keys.map((key) => found.get(key) ?? null);
  };
  const cachedVerdicts = (keys: readonly string[]): Promise<(JudgeResult | null)[]> =>
    readByKeys<{ cache_key: string; result: string }, JudgeResult>(
      keys,
      { sqlOf: cachedVerdictsOf, before: [], key: 'cache_key' },
      (row) => decodeStoredJson(row.result) as unknown as JudgeResult,
    );
  /** One run's verdicts in one transaction of the dialect; a case given twice shares its first's fate. */
  const recordRunVerdicts = async (
    evaluationRunId: string,
    verdicts: readonly NewVerdict[],
  ): Promise<VerdictRecording[]> => {
    const firstOf = new Map<string, number>();
    const inserts: VerdictInsert[] = [];
    const slots = verdicts.map((verdict) => {
      const key = JSON.stringify([verdict.caseKey, verdict.judgeName]);
      let slot = firstOf.get(key);
      if (slot === undefined) {
        slot = inserts.push(verdictInsert(verdict)) - 1;
        firstOf.set(key, slot);
        return { slot, first: true };
      }
      return { slot, first: false };
    });
    const { status, inserted } = await db.recordVerdicts(evaluationRunId, inserts, now());
    if (status === null) throw new EvaluationRunNotFoundError(evaluationRunId, db.where);
    const fates: VerdictRecording[] = [];
    for (const [slot, insert] of inserts.entries()) {
      if (inserted[slot] === true) fates.push('recorded');
      else if (status === 'running') fates.push('duplicate');
      else if (status === 'cancelled' || status === 'failed') fates.push('closed');
      else {
        // a succeeded run has all its verdicts (read afresh: the last may have just committed);
        // a case beyond its total is not one of its cases
        const known = await hasVerdict(evaluationRunId, insert.caseKey, insert.judgeName);
        fates.push(known ? 'duplicate' : 'closed');
      }
    }
    return slots.map(({ slot, first }) => {
      const fate = fates[slot] as VerdictRecording;
      return first || fate === 'closed' ? fate : 'duplicate';
    });
  };
  const recordVerdicts = async (verdicts: readonly NewVerdict[]): Promise<VerdictRecording[]> => {
    writable('record a verdict');
    const byRun = new Map<string, number[]>();
    for (const [index, verdict] of verdicts.entries()) {
      const indexes = byRun.get(verdict.evaluationRunId);
      if (indexes === undefined) byRun.set(verdict.evaluationRunId, [index]);
      else indexes.push(index);
    }
    const recordings = new Array<VerdictRecording>(verdicts.length);
    for (const [evaluationRunId, indexes] of byRun) {
      const fates = await recordRunVerdicts(
        evaluationRunId,
        indexes.map((index) => verdicts[index] as NewVerdict),
      );
      for (const [position, index] of indexes.entries()) {
        recordings[index] = fates[position] as VerdictRecording;
      }
    }
    return recordings;
  };

  return {
    async createEvaluationRun(run) {
      writable('create an evaluation run');
      const createdAt = now();
      // the id's last 4 hex digits are random: two runs created in one second may collide
      for (let attempt = 1; attempt <= idAttempts; attempt++) {
        const id = newRunId(run.judgeName, new Date(createdAt));
        const row = await db.get<EvaluationRunRow>(sql.insertRun, [
          id,
          run.judgeName,
          encodeStoredJson(run.judgeConfig),
          run.configDir,
          run.casesFile,
          run.casesSha256,
          run.cache,
          createdAt,
          run.keepTexts === true,
        ]);
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
      const row = await db.get<EvaluationRunRow>(sql.setCasesTotal, [
        evaluationRunId,
        casesTotal,
        malformedLines,
        now(),
      ]);
      return evaluationRunFromRow(found(evaluationRunId, row));
    },
    cancelEvaluationRun: (evaluationRunId) => finishRun(evaluationRunId, 'cancelled', null),
    failEvaluationRun: (evaluationRunId, error) => finishRun(evaluationRunId, 'failed', error),
    hasVerdict,
    async recordVerdict(verdict) {
      return (await recordVerdicts([verdict]))[0] as VerdictRecording;
    },
    recordVerdicts,
    async verdictCount(evaluationRunId) {
      return (await runRow(evaluationRunId)).verdicts_recorded;
    },
    async verdicts(evaluationRunId, { afterSeq = 0, limit }) {
      requireInteger('limit', { limit }, 0);
      requireInteger('afterSeq', { afterSeq }, 0);
      await runRow(evaluationRunId);
      const page = await db.all<VerdictRow>(sql.verdicts, [evaluationRunId, afterSeq, limit]);
      return page.map(verdictFromRow);
    },
    async recordCases(evaluationRunId, cases) {
      writable('record the cases of an evaluation run');
      for (let start = 0; start < cases.length; start += casesPerInsert) {
        const slice = cases.slice(start, start + casesPerInsert);
        const params: unknown[] = [evaluationRunId];
        for (const each of slice) params.push(each.caseKey, JSON.stringify(each.context));
        await db.all(insertCases(slice.length), params);
      }
    },
    async storedCase(evaluationRunId, caseKey) {
      const row = await db.get<{ context: string }>(sql.storedCase, [evaluationRunId, caseKey]);
      return row === undefined ? null : { caseKey, context: JSON.parse(row.context) };
    },
    storedCases(evaluationRunId, caseKeys) {
      return readByKeys<{ case_key: string; context: string }, StoredCase>(
        caseKeys,
        { sqlOf: storedCasesOf, before: [evaluationRunId], key: 'case_key' },
        (row) => ({ caseKey: row.case_key, context: JSON.parse(row.context) }),
      );
    },
    async unjudgedCases(evaluationRunId, { afterKey = '', limit }) {
      requireInteger('limit', { limit }, 0);
      const run = await runRow(evaluationRunId);
      const rows = await db.all<{ case_key: string; context: string }>(sql.unjudgedCases, [
        evaluationRunId,
        afterKey,
        run.judge_name,
        limit,
      ]);
      return rows.map((row) => ({ caseKey: row.case_key, context: JSON.parse(row.context) }));
    },
    async runningEvaluationRuns() {
      return (await db.all<EvaluationRunRow>(sql.runningRuns, [])).map(evaluationRunFromRow);
    },
    async cachedVerdict(key) {
      return (await cachedVerdicts([key]))[0] ?? null;
    },
    cachedVerdicts,
    async saveSequentialGate(gate) {
      writable("save an evaluation run's sequential gate");
      await runRow(gate.evaluationRunId);
      await db.all(sql.saveGate, [
        gate.evaluationRunId,
        gate.seed,
        gate.total,
        gate.orderSha256,
        gate.folded,
        encodeStoredJson(gate.state),
        gate.decision,
        gate.decidedAt,
        gate.judged,
        now(),
      ]);
      const row = await db.get<SequentialGateRow>(sql.gateRow, [gate.evaluationRunId]);
      return sequentialGateFromRow(row!);
    },
    async sequentialGateOf(evaluationRunId) {
      const row = await db.get<SequentialGateRow>(sql.gateRow, [evaluationRunId]);
      return row === undefined ? null : sequentialGateFromRow(row);
    },
    async recordCalibration(calibration) {
      writable('record a calibration');
      const calibratedAt = now();
      await db.all(sql.insertCalibration, [
        calibration.fingerprint,
        encodeStoredJson(calibration.fingerprintParts),
        calibration.judgeName,
        calibration.labelsSha256,
        calibration.n,
        calibration.kappa,
        calibration.kappaCi?.[0] ?? null,
        calibration.kappaCi?.[1] ?? null,
        calibration.falsePassRate,
        encodeStoredJson(calibration.confusion),
        calibratedAt,
      ]);
      return { ...calibration, calibratedAt };
    },
    async calibrationOf(fingerprint) {
      const row = await db.get<CalibrationRow>(sql.calibrationOf, [fingerprint]);
      return row === undefined ? null : calibrationFromRow(row);
    },
    async latestCalibration(judgeName) {
      const row = await db.get<CalibrationRow>(sql.latestCalibration, [judgeName]);
      return row === undefined ? null : calibrationFromRow(row);
    },
    async close() {
      await db.close();
    },
  };
}

/** A `sequential_gates` row as a database returns it (PostgreSQL's BIGINT as a string). */
interface SequentialGateRow {
  evaluation_run_id: string;
  seed: number | string;
  total: number | string;
  order_sha256: string;
  folded: number | string;
  state: string;
  decision: 'pass' | 'fail' | null;
  decided_at: number | string | null;
  judged: number | string;
  updated_at: string;
}

function sequentialGateFromRow(row: SequentialGateRow): SequentialGateRecord {
  return {
    evaluationRunId: row.evaluation_run_id,
    seed: Number(row.seed),
    total: Number(row.total),
    orderSha256: row.order_sha256,
    folded: Number(row.folded),
    state: decodeStoredJson(row.state),
    decision: row.decision,
    decidedAt: row.decided_at === null ? null : Number(row.decided_at),
    judged: Number(row.judged),
    updatedAt: row.updated_at,
  };
}

/** A `judge_calibrations` row as a database returns it. */
interface CalibrationRow {
  fingerprint: string;
  fingerprint_parts: string;
  judge_name: string;
  labels_sha256: string;
  n: number | string;
  kappa: number | null;
  kappa_lo: number | null;
  kappa_hi: number | null;
  false_pass_rate: number | null;
  confusion: string;
  calibrated_at: string;
}

function calibrationFromRow(row: CalibrationRow): CalibrationRecord {
  const number = (value: number | string | null): number | null =>
    value === null ? null : Number(value);
  const lo = number(row.kappa_lo);
  const hi = number(row.kappa_hi);
  return {
    fingerprint: row.fingerprint,
    fingerprintParts: decodeStoredJson(row.fingerprint_parts),
    judgeName: row.judge_name,
    labelsSha256: row.labels_sha256,
    n: Number(row.n),
    kappa: number(row.kappa),
    kappaCi: lo === null || hi === null ? null : [lo, hi],
    falsePassRate: number(row.false_pass_rate),
    confusion: decodeStoredJson(row.confusion),
    calibratedAt: row.calibrated_at,
  };
}

/**
 * The refusal of a store whose schema predates the judge tables, opened
 * read-only (a write open migrates it).
 *
 * @internal the judge store adapters' own helper.
 * @example
 * ```ts
 * throw judgeTablesMissing('/w/.arena/arena.db', 3);
 * // StoreOpenError: /w/.arena/arena.db: schema version 3 has no evaluation runs yet; open it once for writing (arena judge) to migrate it
 * ```
 */
export function judgeTablesMissing(where: string, version: number): StoreOpenError {
  return new StoreOpenError(
    where,
    `schema version ${version} has no evaluation runs yet; open it once for writing (${arenaCommand('judge')}) to migrate it`,
  );
}
