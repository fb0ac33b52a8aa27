import { ArenaError } from '../shared/errors.js';
import { type JudgePayload, type PayloadRead, readJudgePayload } from './payload.js';

/** Reads raw model output into a payload, or says what is wrong with it. */
export type PayloadReader = (content: string) => PayloadRead;

import { normaliseUsage, type ReportedUsage, responseCost, type TokenUsage } from './usage.js';

/** The error type of a failed call: the error's class name, as the seed does. */
export function errorTypeOf(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  return name.slice(0, 256) || 'JudgeInvocationError';
}

/**
 * What a failed call was, in one line of arena's own words: a provider's or
 * arena's message (the server and the cause, an HTTP status), else only the
 * class of what was thrown, since a foreign error's message may quote model text.
 *
 * @example
 * ```ts
 * errorDetailOf(new ProviderHttpError('model server answered HTTP 400', { status: 400 }));
 * // 'model server answered HTTP 400'
 * errorDetailOf(new TypeError("Cannot read properties of undefined (reading 'pass')")); // 'the evaluator threw TypeError'
 * ```
 */
export function errorDetailOf(error: unknown): string {
  if (error instanceof ArenaError) return oneLine(error.message);
  return `the evaluator threw ${errorTypeOf(error)}`;
}

/**
 * A message fit for a result's `detail`: one line, at most `most` characters (default 400).
 *
 * @example
 * ```ts
 * oneLine('first\nsecond'); // 'first second'
 * oneLine('x'.repeat(500), 10); // 'xxxxxxxxx…'
 * ```
 */
export function oneLine(message: string, most = 400): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length <= most ? line : `${line.slice(0, most - 1)}…`;
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
  /** Why the answer is not a verdict, in one line (no model text); `null` when it is one. */
  readonly problem: string | null;
}

/**
 * Read a model response into an `AnsweredAttempt`. Never throws, and keeps
 * nothing of the raw content except the validated payload.
 *
 * @example
 * ```ts
 * readAnsweredAttempt({ content: 'not json', costUsd: true });
 * // { usage: null, costUsd: null, accountingInvalid: true, payload: null,
 * //   problem: 'judge response cost must be numeric' }
 * ```
 */
export function readAnsweredAttempt(
  response: {
    readonly content: unknown;
    readonly usage?: ReportedUsage | null;
    readonly costUsd?: unknown;
  },
  readPayload: PayloadReader = readJudgePayload,
): AnsweredAttempt {
  let usage: TokenUsage | null = null;
  let accountingProblem: string | null = null;
  try {
    usage = response.usage ? normaliseUsage(response.usage) : null;
  } catch (error) {
    accountingProblem = messageOf(error);
  }
  let costUsd: number | null = null;
  try {
    costUsd = responseCost(response.costUsd);
  } catch (error) {
    accountingProblem ??= messageOf(error);
  }
  const read =
    typeof response.content === 'string'
      ? readPayload(response.content)
      : { payload: null, problem: 'the answer has no text content' };
  return {
    usage,
    costUsd,
    accountingInvalid: accountingProblem !== null,
    payload: read.payload,
    problem: accountingProblem ?? read.problem,
  };
}

/** The message of a usage or cost check (arena's own words, never model text). */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
