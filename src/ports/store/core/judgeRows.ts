import type { JudgeResult } from '../../../domain/judge/result.js';
import type { EvaluationRunRecord, EvaluationRunStatus, StoredVerdict } from '../judgeStore.js';
import { decodeStoredJson } from '../storedJson.js';
import { type Flag, isSet } from './flag.js';

/** An `evaluation_runs` row; flags are 0/1 in SQLite and booleans in PostgreSQL. */
export interface EvaluationRunRow {
  readonly evaluation_run_id: string;
  readonly status: string;
  readonly judge_name: string;
  readonly judge_config: string;
  readonly config_dir: string;
  readonly cases_file: string;
  readonly cases_sha256: string;
  readonly cache: Flag;
  readonly cases_total: number | null;
  readonly malformed_lines: number;
  readonly verdicts_recorded: number;
  readonly created_at: string;
  readonly ended_at: string | null;
  readonly error: string | null;
}

/** A `verdicts` row. */
export interface VerdictRow {
  readonly seq: number;
  readonly evaluation_run_id: string;
  readonly case_key: string;
  readonly judge_name: string;
  readonly result: string;
  readonly from_cache: Flag;
  readonly worker: string | null;
  readonly recorded_at: string;
}

/**
 * An evaluation run as the port gives it, from either adapter's row.
 *
 * @internal the judge store adapters' own helper.
 * @example
 * ```ts
 * evaluationRunFromRow(row).judgeConfig; // the parsed config, as it was stored
 * ```
 */
export function evaluationRunFromRow(row: EvaluationRunRow): EvaluationRunRecord {
  return {
    evaluationRunId: row.evaluation_run_id,
    status: row.status as EvaluationRunStatus,
    judgeName: row.judge_name,
    judgeConfig: decodeStoredJson(row.judge_config),
    configDir: row.config_dir,
    casesFile: row.cases_file,
    casesSha256: row.cases_sha256,
    cache: isSet(row.cache),
    casesTotal: row.cases_total === null ? null : Number(row.cases_total),
    malformedLines: Number(row.malformed_lines),
    createdAt: row.created_at,
    endedAt: row.ended_at,
    error: row.error,
  };
}

/**
 * A stored verdict as the port gives it, from either adapter's row.
 *
 * @internal the judge store adapters' own helper.
 * @example
 * ```ts
 * verdictFromRow(row).result.status; // 'passed'
 * ```
 */
export function verdictFromRow(row: VerdictRow): StoredVerdict {
  return {
    evaluationRunId: row.evaluation_run_id,
    caseKey: row.case_key,
    judgeName: row.judge_name,
    seq: Number(row.seq),
    result: decodeStoredJson(row.result) as unknown as JudgeResult,
    fromCache: isSet(row.from_cache),
    worker: row.worker,
    recordedAt: row.recorded_at,
  };
}
