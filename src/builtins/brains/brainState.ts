import { z } from 'zod';
import { BrainStateError } from './errors.js';
import { type ComponentInputParser, parseOrThrow } from './parseParams.js';

/**
 * Parse the saved state of `component` with `schema`, or throw a
 * `BrainStateError` naming the component and the first bad field.
 *
 * @example
 * ```ts
 * parseBrainState('RandomBrain', z.strictObject({ version: z.literal(1) }), { version: 2 });
 * // BrainStateError: RandomBrain saved state.version: Invalid input: expected 1
 * ```
 */
export const parseBrainState: ComponentInputParser = (component, schema, state) =>
  parseOrThrow(
    schema,
    state,
    (path, message) => new BrainStateError(`${component} saved state${path}: ${message}`),
  );

/** An rng state as saved: a 32-bit unsigned integer. */
export const rngStateSchema = z.int().min(0).max(0xffffffff);

/** Evaluation returns not yet reported by `evaluateRollouts`. */
export const pendingReturnsSchema = z.array(z.number());

/**
 * Check that the actuators a state was saved with are the ones set up now.
 *
 * @throws BrainStateError listing both when they differ.
 */
export function assertSameUids(
  component: string,
  what: 'sensors' | 'actuators',
  saved: readonly string[],
  current: readonly string[],
): void {
  if (saved.length === current.length && saved.every((uid, index) => uid === current[index])) {
    return;
  }
  throw new BrainStateError(
    `${component} saved state was learned for ${what} [${saved.join(', ')}], but the agent is set up with [${current.join(', ')}]`,
  );
}
