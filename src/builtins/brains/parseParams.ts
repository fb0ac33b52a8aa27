import type { z } from 'zod';
import { BrainParamsError } from './errors.js';

/** Parses one input of a built-in component with `schema`, naming the component when it fails. */
export type ComponentInputParser = <Schema extends z.ZodType>(
  component: string,
  schema: Schema,
  value: unknown,
) => z.infer<Schema>;

/**
 * Parse a component's `params` with `schema`, or throw a `BrainParamsError`
 * naming the component and the first bad field.
 *
 * @example
 * ```ts
 * parseParams('ConstantBrain', z.strictObject({ default: z.number() }), { default: 'x' });
 * // BrainParamsError: ConstantBrain params.default: Invalid input: expected number, received string
 * ```
 */
export const parseParams: ComponentInputParser = (component, schema, params) =>
  parseOrThrow(
    schema,
    params,
    (path, message) => new BrainParamsError(`${component} params${path}: ${message}`),
  );

/**
 * `value` parsed with `schema`, or the error `fail` makes of the first issue:
 * its path as written after a name (`.values.x`, `[0]`) and its message.
 *
 * @example
 * ```ts
 * parseOrThrow(z.strictObject({ n: z.number() }), { n: 'x' }, (path, message) => new Error(`params${path}: ${message}`));
 * // Error: params.n: Invalid input: expected number, received string
 * ```
 */
export function parseOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  fail: (path: string, message: string) => Error,
): z.infer<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map((part) =>
    typeof part === 'number' ? `[${part}]` : `.${String(part)}`,
  );
  throw fail(path.join(''), issue.message);
}
