import { hash } from 'node:crypto';
import { JudgeConfigurationError } from './errors.js';
import type { TokenUsage } from './usage.js';

/** How a judgement ended. `error` results carry an `errorType` and a `detail`. */
export type JudgeStatus = 'passed' | 'failed' | 'skipped' | 'error';

/** A reference to content by digest: the raw text never travels in a result. */
export interface ContentReference {
  readonly kind: 'judge_evidence';
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly mediaType: 'text/plain';
}

/** One judgement of one subject. Plain JSON data. */
export interface JudgeResult {
  readonly evaluationRunId: string;
  readonly caseId: string;
  readonly subjectId: string;
  readonly judge: string;
  readonly judgeVersion: string;
  readonly promptSha256: string;
  readonly rubricVersion: string;
  readonly status: JudgeStatus;
  readonly score: number | null;
  readonly label: string | null;
  readonly evidence: readonly ContentReference[];
  readonly model: string | null;
  readonly usage: TokenUsage | null;
  readonly costUsd: number | null;
  /** Measured on the monotonic clock, in whole milliseconds. */
  readonly durationMs: number;
  readonly attemptCount: number;
  readonly errorType: string | null;
  /**
   * What went wrong, in one line, for an `error` result (`null` otherwise): a
   * rejected verdict's field and rule (`status: expected passed, failed or
   * skipped, got "pass"`), a timeout, an HTTP status, an unreachable server.
   * Never model text. Absent from results stored before results carried it.
   */
  readonly detail?: string | null;
  /** ISO 8601 UTC, e.g. `2026-01-01T00:00:00.000Z`. */
  readonly createdAt: string;
  /**
   * Set when a persistent verdict cache was consulted (`arena judge --store`):
   * `true` when this result came from it, without a provider call.
   */
  readonly cached?: boolean;
}

/**
 * A content reference for one evidence string.
 *
 * @example
 * ```ts
 * evidenceReference('abc');
 * // { kind: 'judge_evidence', sha256: 'ba7816bf…', sizeBytes: 3, mediaType: 'text/plain' }
 * ```
 */
export function evidenceReference(value: string): ContentReference {
  return {
    kind: 'judge_evidence',
    sha256: hash('sha256', value, 'hex'),
    sizeBytes: Buffer.byteLength(value, 'utf8'),
    mediaType: 'text/plain',
  };
}

/**
 * What a judge clock returns: a `Date` (always aware), or an ISO 8601 string
 * that must carry a zone (`Z` or `±hh:mm`). A zone-less string such as
 * `'2026-01-01T00:00:00'` is the JavaScript form of Python's naive datetime.
 */
export type ClockReading = Date | string;

const ZONED_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Turn a clock reading into an aware UTC ISO timestamp, rejecting a reading
 * without a zone with `JudgeConfigurationError`.
 *
 * @example
 * ```ts
 * awareUtcTimestamp('2026-01-01T02:00:00+02:00'); // '2026-01-01T00:00:00.000Z'
 * awareUtcTimestamp('2026-01-01T00:00:00'); // throws JudgeConfigurationError
 * ```
 */
export function awareUtcTimestamp(reading: ClockReading): string {
  if (typeof reading === 'string' && !ZONED_ISO.test(reading)) {
    throw new JudgeConfigurationError(
      `judge clock must return an aware timestamp (with Z or an offset), got '${reading.slice(0, 64)}'`,
    );
  }
  const date = typeof reading === 'string' ? new Date(reading) : reading;
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new JudgeConfigurationError('judge clock must return a valid Date or ISO 8601 string');
  }
  return date.toISOString();
}
