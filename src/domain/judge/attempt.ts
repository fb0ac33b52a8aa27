import { type JudgePayload, parseJudgePayload } from './payload.js';
import { normaliseUsage, type ReportedUsage, responseCost, type TokenUsage } from './usage.js';

/** The error type of a failed call: the error's class name, as the seed does. */
export function errorTypeOf(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  return name.slice(0, 256) || 'JudgeInvocationError';
}

/**
 * One answered attempt, read once and without the raw text: its usage, its
 * checked cost and its validated payload (`null` when invalid).
 */
export interface AnsweredAttempt {
  readonly usage: TokenUsage | null;
  readonly costUsd: number | null;
  /** The reported usage or cost is malformed (e.g. a boolean cost): an invalid response. */
  readonly accountingInvalid: boolean;
  readonly payload: JudgePayload | null;
}

/**
 * Read a model response into an `AnsweredAttempt`. Never throws, and keeps
 * nothing of the raw content except the validated payload.
 *
 * @example
 * ```ts
 * readAnsweredAttempt({ content: 'not json', costUsd: true });
 * // { usage: null, costUsd: null, accountingInvalid: true, payload: null }
 * ```
 */
export function readAnsweredAttempt(response: {
  readonly content: unknown;
  readonly usage?: ReportedUsage | null;
  readonly costUsd?: unknown;
}): AnsweredAttempt {
  let usage: TokenUsage | null = null;
  let usageInvalid = false;
  try {
    usage = response.usage ? normaliseUsage(response.usage) : null;
  } catch {
    usageInvalid = true;
  }
  let costUsd: number | null = null;
  let accountingInvalid = usageInvalid;
  try {
    costUsd = responseCost(response.costUsd);
  } catch {
    accountingInvalid = true;
  }
  let payload: JudgePayload | null = null;
  try {
    payload = typeof response.content === 'string' ? parseJudgePayload(response.content) : null;
  } catch {
    payload = null;
  }
  return { usage, costUsd, accountingInvalid, payload };
}
