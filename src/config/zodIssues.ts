import { z } from 'zod';
import { describeValue } from '../domain/shared/describeValue.js';
import { closestName, didYouMean } from '../domain/shared/suggest.js';
import type { PathSegment } from './configIssue.js';

/** A problem found at a path, before it is given a line and column. */
export interface PathIssue {
  readonly segments: readonly PathSegment[];
  readonly message: string;
  /** What is accepted there (`one of: mode, worker, ...`). */
  readonly expected?: string;
  /** The accepted key a misspelt one most likely meant. */
  readonly suggestion?: string;
}

/**
 * Describe a value from a YAML file in a few words, for "got ..." messages:
 * `describeValue` with a scalar's type named first, a long string cut short
 * and an empty list told apart (a YAML author reads types, not JSON).
 *
 * @example
 * ```ts
 * describeYamlValue(true); // 'boolean true'
 * describeYamlValue([]);   // 'an empty list'
 * ```
 */
export function describeYamlValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return `string ${describeValue(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
    case 'boolean':
    case 'number':
      return `${typeof value} ${describeValue(value)}`;
    case 'object':
      return Array.isArray(value) && value.length === 0 ? 'an empty list' : describeValue(value);
    default:
      return value === undefined ? describeValue(value) : 'a mapping';
  }
}

/**
 * A zod error function that says what was expected and what the file held:
 * `required: expected <description>` for a missing key, else
 * `expected <description>, got <value>`.
 *
 * @example
 * ```ts
 * z.number().int({ error: expecting('a non-negative integer') }).safeParse(1.5);
 * // issue message: 'expected a non-negative integer, got number 1.5'
 * ```
 */
export function expecting(description: string): (issue: { readonly input?: unknown }) => string {
  return (issue) =>
    issue.input === undefined
      ? `required: expected ${description}`
      : `expected ${description}, got ${describeYamlValue(issue.input)}`;
}

/**
 * Turn a zod error into path issues under `prefix`. An unknown-keys issue
 * becomes one issue per key, suggesting the accepted key it most likely
 * meant and listing the keys the schema accepts there.
 *
 * @example
 * ```ts
 * const schema = z.strictObject({ mode: z.string() });
 * const result = schema.safeParse({ mode: 'train', mdoe: 'x' });
 * if (!result.success) issuesFromZod(result.error, schema, ['phase_config']);
 * // [{ segments: ['phase_config', 'mdoe'], message: 'unknown key; did you mean "mode"? (expected one of: mode)' }]
 * ```
 */
export function issuesFromZod(
  error: z.ZodError,
  schema: z.ZodType,
  prefix: readonly PathSegment[] = [],
): PathIssue[] {
  const issues: PathIssue[] = [];
  for (const issue of error.issues) {
    const segments = [...prefix, ...(issue.path as PathSegment[])];
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys(schema, issue.path as PathSegment[]);
      const expected = known.length > 0 ? `one of: ${known.join(', ')}` : undefined;
      const hint = expected !== undefined ? ` (expected ${expected})` : '';
      for (const key of issue.keys) {
        const suggestion = closestName(key, known);
        issues.push({
          segments: [...segments, key],
          message: `unknown key${didYouMean(key, known)}${hint}`,
          ...(expected !== undefined ? { expected } : {}),
          ...(suggestion !== null ? { suggestion } : {}),
        });
      }
    } else if (issue.code === 'invalid_union') {
      // a union's own message says what it takes; zod's default is the JSON values' union
      issues.push({
        segments,
        message:
          issue.message !== 'Invalid input'
            ? issue.message
            : 'expected plain data (strings, finite numbers, booleans, null, lists and mappings)',
      });
    } else {
      issues.push({ segments, message: issue.message });
    }
  }
  return issues;
}

/** The keys an object schema (or a record keyed by an enum) accepts at `path` inside `schema`, or `[]`. */
function knownKeys(schema: z.ZodType, path: readonly PathSegment[]): string[] {
  let current: z.ZodType | undefined = unwrap(schema);
  for (const segment of path) {
    if (current === undefined) return [];
    current = unwrap(childSchema(current, segment));
  }
  if (current instanceof z.ZodObject) return Object.keys(current.shape);
  if (current instanceof z.ZodRecord && current.keyType instanceof z.ZodEnum) {
    return current.keyType.options.map(String);
  }
  return [];
}

function childSchema(schema: z.ZodType, segment: PathSegment): z.ZodType | undefined {
  if (schema instanceof z.ZodObject && typeof segment === 'string') {
    return (schema.shape as Record<string, z.ZodType>)[segment];
  }
  if (schema instanceof z.ZodArray) return schema.element as z.ZodType;
  if (schema instanceof z.ZodRecord) return schema.valueType as z.ZodType;
  if (schema instanceof z.ZodTuple && typeof segment === 'number') {
    const { items, rest } = schema.def;
    return (items[segment] ?? rest ?? undefined) as z.ZodType | undefined;
  }
  return undefined;
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodDefault ||
    current instanceof z.ZodNullable ||
    current instanceof z.ZodPipe
  ) {
    current = (current instanceof z.ZodPipe ? current.in : current.unwrap()) as z.ZodType;
  }
  return current;
}
