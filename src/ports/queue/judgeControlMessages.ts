/**
 * The judge fleet's control messages as they travel on a bus anyone with
 * access may publish to: each is parsed and checked here, and what fails is
 * dropped by the queue (with a warning), never thrown at a worker. Checked by
 * hand, not by zod: a message has one or two fields, and a judge-only worker
 * opens its queue before it needs zod (compiling and loading zod is ~45 ms of
 * its start-up CPU).
 */

/** An id or a pause key is longer than this in no message arena made (a key is `<base_url> <model>`). */
const maxIdLength = 2048;

/** What a field holds: an `id` is a string of 1 to {@link maxIdLength} characters, an `epochMs` a number from 0 to `Number.MAX_SAFE_INTEGER`. */
export type ControlField = 'id' | 'epochMs';

/** A control message's fields and what each holds. */
export type ControlMessageShape = Readonly<Record<string, ControlField>>;

/** The message a shape describes: its fields alone, each a string or a number. */
export type ControlMessageOf<S extends ControlMessageShape> = {
  readonly [K in keyof S]: S[K] extends 'id' ? string : number;
};

/** `{ key, untilMs }`: a model paused until an epoch ms a timer could reach. */
export const modelPauseMessage = { key: 'id', untilMs: 'epochMs' } as const;

/** `{ evaluationRunId }`: look at this run in the store, it may have been cancelled. */
export const runCancelMessage = { evaluationRunId: 'id' } as const;

/** A checked control message, or why it was dropped. */
export type ControlMessageCheck<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: string };

const expected: Readonly<Record<ControlField, string>> = {
  id: `a string of 1 to ${maxIdLength} characters`,
  epochMs: `a number from 0 to ${Number.MAX_SAFE_INTEGER}`,
};

const holds = (field: ControlField, value: unknown): boolean =>
  field === 'id'
    ? typeof value === 'string' && value.length >= 1 && value.length <= maxIdLength
    : typeof value === 'number' && value >= 0 && value <= Number.MAX_SAFE_INTEGER;

/**
 * Parse one control message's bytes as JSON and check it against `shape`;
 * fields the shape does not name are left out of the value.
 *
 * @example
 * ```ts
 * checkControlMessage(modelPauseMessage, '{"key":"k","untilMs":-1}');
 * // { ok: false, reason: 'untilMs: expected a number from 0 to 9007199254740991' }
 * checkControlMessage(runCancelMessage, '{"evaluationRunId":"strict-1"}');
 * // { ok: true, value: { evaluationRunId: 'strict-1' } }
 * ```
 */
export function checkControlMessage<S extends ControlMessageShape>(
  shape: S,
  data: Uint8Array | string,
): ControlMessageCheck<ControlMessageOf<S>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { ok: false, reason: 'message: expected an object' };
  const value: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    const held = (parsed as Record<string, unknown>)[name];
    if (!Object.hasOwn(parsed, name) || !holds(field, held))
      return { ok: false, reason: `${name}: expected ${expected[field]}` };
    value[name] = held;
  }
  return { ok: true, value: value as ControlMessageOf<S> };
}
