import { z } from 'zod';

/**
 * The judge fleet's control messages as they travel on a bus anyone with
 * access may publish to: each is parsed and checked here, and what fails is
 * dropped by the queue (with a warning), never thrown at a worker.
 */

/** A pause key is `<base_url> <model>`: longer than this is no model of a judge config. */
const maxKeyLength = 2048;

/** `{ key, untilMs }`: a model paused until an epoch ms a timer could reach. */
export const modelPauseMessage = z.object({
  key: z.string().min(1).max(maxKeyLength),
  untilMs: z.number().nonnegative().max(Number.MAX_SAFE_INTEGER),
});

/** `{ evaluationRunId }`: look at this run in the store, it may have been cancelled. */
export const runCancelMessage = z.object({
  evaluationRunId: z.string().min(1).max(maxKeyLength),
});

/** A checked control message, or why it was dropped. */
export type ControlMessageCheck<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: string };

/**
 * Parse one control message's bytes as JSON and check it against `schema`.
 *
 * @example
 * ```ts
 * checkControlMessage(modelPauseMessage, '{"key":"k","untilMs":-1}');
 * // { ok: false, reason: 'untilMs: Too small: expected number to be >=0' }
 * checkControlMessage(runCancelMessage, '{"evaluationRunId":"strict-1"}');
 * // { ok: true, value: { evaluationRunId: 'strict-1' } }
 * ```
 */
export function checkControlMessage<T>(
  schema: z.ZodType<T>,
  data: Uint8Array | string,
): ControlMessageCheck<T> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const checked = schema.safeParse(parsed);
  if (checked.success) return { ok: true, value: checked.data };
  const issue = checked.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'message';
  return { ok: false, reason: `${where}: ${issue?.message ?? 'invalid'}` };
}
