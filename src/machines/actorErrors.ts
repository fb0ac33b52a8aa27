import { fromPromise } from 'xstate';

/** An error as plain JSON, so it can sit in a machine's persisted context. */
export interface ErrorData {
  readonly name: string;
  readonly code: string | null;
  readonly message: string;
}

/**
 * An error (arena's carry a `code`) as plain JSON.
 *
 * @example
 * ```ts
 * errorData(new TypeError('bad')); // { name: 'TypeError', code: null, message: 'bad' }
 * ```
 */
export function errorData(error: unknown): ErrorData {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name,
      code: typeof code === 'string' ? code : null,
      message: error.message,
    };
  }
  return { name: 'Error', code: null, message: String(error) };
}

/**
 * The default of an actor a machine invokes but cannot run by itself (it
 * reaches the live world): it fails with `wiringError(name)` until the
 * machine is given a real one with `machine.provide({ actors })`.
 */
export function unwiredActor<TOutput, TInput>(name: string, wiringError: (name: string) => Error) {
  return fromPromise<TOutput, TInput>(async () => {
    throw wiringError(name);
  });
}
