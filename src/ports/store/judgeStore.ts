import type { JudgeContext } from '../../domain/judge/context.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import { ArenaError } from '../../domain/shared/errors.js';
import type { JsonValue } from '../../domain/shared/json.js';

/**
 * The judge store port: evaluation runs (one `arena judge` of one cases file),
 * exactly one verdict per (evaluation run, case, judge), and the persistent
 * verdict cache. It lives in the run store's database (SQLite or PostgreSQL,
 * the same `--store`) and is asynchronous: unlike a run's barrier, a verdict
 * is one row and needs no pause of anything.
 */

/** How an evaluation run ended, or `running` while verdicts are still coming. */
export type EvaluationRunStatus = 'running' | 'succeeded' | 'cancelled' | 'failed';

/** One `arena judge` of one cases file, as every worker and follower sees it. */
export interface EvaluationRunRecord {
  /** `<judge name>-<yyyymmddThhmmss>-<4 hex>`, like run ids. */
  readonly evaluationRunId: string;
  readonly status: EvaluationRunStatus;
  /** The judge profile every case is judged with. */
  readonly judgeName: string;
  /** The parsed judge config (models, judges, rubric, gates): it travels with the run; API keys never do, only `api_key_env` names. */
  readonly judgeConfig: JsonValue;
  /** Where the config's relative paths (agent modules, replay files) start. */
  readonly configDir: string;
  /** The cases file as the submitter named it (absolute). */
  readonly casesFile: string;
  /** sha256 (hex) of the cases file's bytes. */
  readonly casesSha256: string;
  /** Whether verdicts may come from, and go to, the verdict cache (`--no-cache` turns it off). */
  readonly cache: boolean;
  /** How many cases were queued; `null` while the submitter is still reading the file. */
  readonly casesTotal: number | null;
  /** Lines of the cases file that were not a case (reported by the submitter, never judged). */
  readonly malformedLines: number;
  readonly createdAt: string;
  readonly endedAt: string | null;
  /** Why a failed run failed. */
  readonly error: string | null;
}

/** What `createEvaluationRun` needs; the id, status and times are the store's. */
export type NewEvaluationRun = Pick<
  EvaluationRunRecord,
  'judgeName' | 'judgeConfig' | 'configDir' | 'casesFile' | 'casesSha256' | 'cache'
> & {
  /**
   * Keep the cases' texts once the run has finished (`arena judge --keep-texts`).
   * By default a finished run keeps its verdicts and each case's digest, and drops the texts.
   */
  readonly keepTexts?: boolean;
};

/** Where a verdict's result is kept in the cache, and under which identity. */
export interface VerdictCacheEntry {
  /** sha256 (hex) over the prompt's sha256 and the judge's identity (see `verdictCacheEntryOf`). */
  readonly key: string;
  readonly promptSha256: string;
  readonly model: string | null;
  readonly judgeVersion: string;
  readonly rubricVersion: string;
}

/** One verdict to record. */
export interface NewVerdict {
  readonly evaluationRunId: string;
  /** The case's identity within the run (see `caseKeyOf`). */
  readonly caseKey: string;
  readonly judgeName: string;
  readonly result: JudgeResult;
  readonly fromCache: boolean;
  /** Which worker judged it (`arena worker --name`), or `null` in one process. */
  readonly worker: string | null;
  /** Put a non-error, freshly judged result into the verdict cache, in the same transaction. */
  readonly cacheEntry?: VerdictCacheEntry;
}

/** A stored verdict. */
export interface StoredVerdict {
  readonly evaluationRunId: string;
  readonly caseKey: string;
  readonly judgeName: string;
  /** Increases with each recorded verdict of the store: read verdicts in this order. */
  readonly seq: number;
  readonly result: JudgeResult;
  readonly fromCache: boolean;
  readonly worker: string | null;
  readonly recordedAt: string;
}

/**
 * What `recordVerdict` did: `recorded` (the one verdict of this case now),
 * `duplicate` (one was there already: a redelivery or a racing worker) or
 * `closed` (the run was cancelled or failed: nothing written; also a case
 * that is not one of a succeeded run's, whose every verdict is in).
 */
export type VerdictRecording = 'recorded' | 'duplicate' | 'closed';

/** A case of an evaluation run as it was queued: its key (`caseKeyOf`) and its context. */
export interface StoredCase {
  readonly caseKey: string;
  readonly context: JudgeContext;
}

/** A judge's agreement with people's labels, as stored under its fingerprint. */
export interface CalibrationRecord {
  /** SHA-256 (hex) of the judge's fingerprint parts. */
  readonly fingerprint: string;
  /** What the digest was made of (`JudgeFingerprintParts`), to say later which part changed. */
  readonly fingerprintParts: JsonValue;
  readonly judgeName: string;
  /** SHA-256 (hex) of the labels file's bytes. */
  readonly labelsSha256: string;
  readonly n: number;
  readonly kappa: number | null;
  readonly kappaCi: readonly [number, number] | null;
  readonly falsePassRate: number | null;
  /** `{ labels, matrix }`, rows the judge, columns the reference. */
  readonly confusion: JsonValue;
  readonly calibratedAt: string;
}

/** What `recordCalibration` needs; the date is the store's. */
export type NewCalibration = Omit<CalibrationRecord, 'calibratedAt'>;

/** Calibrations under judges' fingerprints (the judge store holds them; the memory store too). */
export interface CalibrationStore {
  recordCalibration(calibration: NewCalibration): Promise<CalibrationRecord>;
  /** The newest calibration of this fingerprint, or `null`. */
  calibrationOf(fingerprint: string): Promise<CalibrationRecord | null>;
  /** The newest calibration of any fingerprint of the judge `judgeName`, or `null`. */
  latestCalibration(judgeName: string): Promise<CalibrationRecord | null>;
}

/**
 * The sequential gate of an evaluation run (`gates.sequential`), as its
 * submitter saved it at its last quiet point: the draw order (its seed, the
 * number of cases, the order's digest) and the fold state that a resumed or
 * distributed run continues from.
 */
export interface SequentialGateRecord {
  readonly evaluationRunId: string;
  /** The draw order's seed. */
  readonly seed: number;
  /** The cases drawn: the file's cases. */
  readonly total: number;
  /** sha256 (hex) of the draw order (`order[i]` as 32-bit little-endian integers): a resume checks it draws the same order. */
  readonly orderSha256: string;
  /** Results folded in draw order so far. */
  readonly folded: number;
  /** The gates' fold state (`SequentialGateState`), plain JSON. */
  readonly state: JsonValue;
  readonly decision: 'pass' | 'fail' | null;
  /** The 1-based draw index of the deciding result. */
  readonly decidedAt: number | null;
  /** Verdicts recorded for the run when it was saved: judgements made (paid for). */
  readonly judged: number;
  readonly updatedAt: string;
}

/** What `saveSequentialGate` writes; the time is the store's. */
export type NewSequentialGateRecord = Omit<SequentialGateRecord, 'updatedAt'>;

/** Evaluation runs, their verdicts and the verdict cache. */
export interface JudgeStore extends CalibrationStore {
  /** Create a running evaluation run under a fresh id (a colliding id is retried). */
  createEvaluationRun(run: NewEvaluationRun): Promise<EvaluationRunRecord>;
  /** @throws EvaluationRunNotFoundError */
  getEvaluationRun(evaluationRunId: string): Promise<EvaluationRunRecord>;
  /**
   * The submitter has queued every case: record how many (and the malformed
   * lines). A running run whose verdicts are all in then succeeds, in the same transaction.
   */
  setCasesTotal(
    evaluationRunId: string,
    casesTotal: number,
    malformedLines: number,
  ): Promise<EvaluationRunRecord>;
  /** A running run becomes `cancelled` (a finished one stays as it is): no verdict is recorded after this. */
  cancelEvaluationRun(evaluationRunId: string): Promise<EvaluationRunRecord>;
  /** A running run becomes `failed` with `error` (a finished one stays as it is). */
  failEvaluationRun(evaluationRunId: string, error: string): Promise<EvaluationRunRecord>;
  /** Whether the case already has its verdict. */
  hasVerdict(evaluationRunId: string, caseKey: string, judgeName: string): Promise<boolean>;
  /**
   * Record a case's verdict, atomically: only while the run is `running`, at
   * most once per (run, case, judge); when it is the last of `casesTotal`, the
   * run succeeds in the same transaction. An error result never enters the cache.
   */
  recordVerdict(verdict: NewVerdict): Promise<VerdictRecording>;
  /**
   * Record many verdicts, each as `recordVerdict` would, with one transaction
   * per evaluation run among them (one insert of the verdicts and their cache
   * entries, the run's count updated once): each recording in order. A case
   * given twice is one verdict; its second recording is `duplicate`.
   */
  recordVerdicts(verdicts: readonly NewVerdict[]): Promise<VerdictRecording[]>;
  verdictCount(evaluationRunId: string): Promise<number>;
  /** Verdicts of a run in `seq` order, `limit` at a time after `afterSeq` (default: from the start). */
  verdicts(
    evaluationRunId: string,
    options: { readonly afterSeq?: number; readonly limit: number },
  ): Promise<StoredVerdict[]>;
  /**
   * Keep the cases of a run as they are queued (the first of a key is kept),
   * so the judge queue can be rebuilt from the store (`arena requeue`).
   */
  recordCases(evaluationRunId: string, cases: readonly StoredCase[]): Promise<void>;
  /** The case a run holds under `caseKey`, or `null` when it holds none (a forged or stray name). */
  storedCase(evaluationRunId: string, caseKey: string): Promise<StoredCase | null>;
  /** The cases a run holds under `caseKeys`, in order (`null` where it holds none), read at once. */
  storedCases(evaluationRunId: string, caseKeys: readonly string[]): Promise<(StoredCase | null)[]>;
  /** A running run's stored cases that have no verdict yet, in key order, `limit` at a time after `afterKey`. */
  unjudgedCases(
    evaluationRunId: string,
    options: { readonly afterKey?: string; readonly limit: number },
  ): Promise<StoredCase[]>;
  /** Every evaluation run still `running`, oldest first. */
  runningEvaluationRuns(): Promise<EvaluationRunRecord[]>;
  /** The cached result under `key`, or `null`. */
  cachedVerdict(key: string): Promise<JudgeResult | null>;
  /** The cached results under `keys`, in order (`null` where there is none), read at once. */
  cachedVerdicts(keys: readonly string[]): Promise<(JudgeResult | null)[]>;
  /**
   * Save a run's sequential gate: the first save records the draw order, a
   * later one the fold state if it folded at least as far; a decided gate is
   * never written again. Returns the gate as stored after the call.
   */
  saveSequentialGate(gate: NewSequentialGateRecord): Promise<SequentialGateRecord>;
  /** A run's sequential gate, or `null` when it has none. */
  sequentialGateOf(evaluationRunId: string): Promise<SequentialGateRecord | null>;
  close(): Promise<void>;
}

/**
 * A case's identity within an evaluation run: its own run id, case id and
 * subject id (the subject defaults to the case), unambiguous as JSON.
 *
 * @example
 * ```ts
 * caseKeyOf({ evaluationRunId: 'judge-1a2b', caseId: 'c1', subjectId: 'c1', ... }); // '["judge-1a2b","c1","c1"]'
 * ```
 */
export function caseKeyOf(
  context: Pick<JudgeContext, 'evaluationRunId' | 'caseId' | 'subjectId'>,
): string {
  return JSON.stringify([context.evaluationRunId, context.caseId, context.subjectId]);
}

/**
 * No evaluation run of that id in the store.
 *
 * @example
 * ```ts
 * await store.getEvaluationRun('nope'); // throws EvaluationRunNotFoundError: no evaluation run 'nope' in sqlite:verdicts.db
 * ```
 */
export class EvaluationRunNotFoundError extends ArenaError {
  constructor(evaluationRunId: string, where: string) {
    super('EVALUATION_RUN_NOT_FOUND', `no evaluation run '${evaluationRunId}' in ${where}`);
  }
}
