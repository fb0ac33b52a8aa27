import type { z } from 'zod';
import { BrainParamsError } from './errors.js';

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
export function parseParams<Schema extends z.ZodType>(
  component: string,
  schema: Schema,
  params: unknown,
): z.infer<Schema> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map((part) =>
    typeof part === 'number' ? `[${part}]` : `.${String(part)}`,
  );
  throw new BrainParamsError(`${component} params${path.join('')}: ${issue.message}`);
}
