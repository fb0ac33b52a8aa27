import { z } from 'zod';
import {
  type ConfigIssue,
  formatYamlPath,
  type PathSegment,
  parseYamlPath,
} from './configIssue.js';
import type { ComponentRef } from './runSpec.js';
import { describeYamlValue, issuesFromZod } from './zodIssues.js';

/**
 * The part of the Standard Schema interface (https://standardschema.dev)
 * arena reads: zod 4, valibot and arktype schemas all have it.
 */
interface StandardSchema {
  readonly '~standard': {
    readonly validate: (value: unknown) => StandardResult | Promise<StandardResult>;
  };
}

type StandardResult =
  | { readonly issues?: undefined }
  | {
      readonly issues: readonly {
        readonly message: string;
        readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[];
      }[];
    };

function isStandardSchema(value: unknown): value is StandardSchema {
  const standard = (value as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  return typeof standard?.validate === 'function';
}

/**
 * The params schema a component declares: the `paramsSchema` property of the
 * class or factory its name resolves to (`static paramsSchema = z.object(...)`
 * on a class). `undefined` when it declares none.
 *
 * @example
 * ```ts
 * paramsSchemaOf(builtinComponents.get('arena:CrossEntropyBrain')); // the brain's zod schema
 * paramsSchemaOf(class Plain {});                                  // undefined
 * ```
 */
export function paramsSchemaOf(component: unknown): unknown {
  if ((typeof component !== 'function' && typeof component !== 'object') || component === null) {
    return undefined;
  }
  return (component as { paramsSchema?: unknown }).paramsSchema;
}

/**
 * Check a component's `params` against the schema it declares (see
 * {@link paramsSchemaOf}): a zod schema of arena's own zod, or any Standard
 * Schema (a user module may bring its own zod, valibot or arktype). Returns
 * every problem, each at its YAML path under `<component>.params`, with no
 * line yet; `[]` when the params pass or the component declares no schema.
 *
 * @example
 * ```ts
 * await componentParamsIssues(
 *   { name: 'arena:CrossEntropyBrain', params: { populaton: 6 }, yamlPath: 'schedule[0].train.agents[0].brain' },
 *   builtinComponents.get('arena:CrossEntropyBrain'),
 * );
 * // [{ path: 'schedule[0].train.agents[0].brain.params.populaton',
 * //    message: 'unknown key; did you mean "population"? (expected one of: population, elite_fraction, initial_std, min_std)',
 * //    location: null }]
 * ```
 */
export async function componentParamsIssues(
  ref: ComponentRef,
  component: unknown,
): Promise<ConfigIssue[]> {
  const schema = paramsSchemaOf(component);
  if (schema === undefined) return [];
  const prefix: PathSegment[] = [...(parseYamlPath(ref.yamlPath) ?? []), 'params'];
  const issue = (segments: readonly PathSegment[], message: string): ConfigIssue => ({
    path: formatYamlPath(segments),
    message,
    location: null,
  });
  if (schema instanceof z.ZodType) {
    const parsed = schema.safeParse(ref.params, { reportInput: true, error: typeMismatch });
    if (parsed.success) return [];
    return issuesFromZod(parsed.error, schema, prefix).map(({ segments, ...found }) => ({
      ...issue(segments, found.message),
      ...found,
    }));
  }
  if (!isStandardSchema(schema)) {
    return [
      issue(
        prefix,
        `${ref.name} has a paramsSchema that is not a schema (expected a zod or other Standard Schema with ~standard.validate)`,
      ),
    ];
  }
  const result = await schema['~standard'].validate(ref.params);
  return (result.issues ?? []).flatMap((found) => {
    const segments = [...prefix, ...(found.path ?? []).map(segmentOf)];
    // another copy of zod reports unknown keys as one issue at their parent: name each key
    const keys = (found as { code?: unknown; keys?: unknown }).keys;
    if ((found as { code?: unknown }).code === 'unrecognized_keys' && Array.isArray(keys)) {
      return keys.map((key) => issue([...segments, String(key)], 'unknown key'));
    }
    return [issue(segments, found.message)];
  });
}

/** `expected number, got string "six"` for a wrong type; zod's own message for the rest. */
function typeMismatch(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_type' || issue.input === undefined) return undefined;
  return `expected ${issue.expected}, got ${describeYamlValue(issue.input)}`;
}

function segmentOf(segment: PropertyKey | { readonly key: PropertyKey }): PathSegment {
  const key = typeof segment === 'object' ? segment.key : segment;
  return typeof key === 'number' ? key : String(key);
}
