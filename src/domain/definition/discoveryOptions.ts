import { z } from 'zod';
import { deepFreeze } from '../shared/json.js';
import type { Space } from '../shared/spaces.js';
import { DefinitionConfigError, JsonPointerError } from './errors.js';
import { parsePointer } from './pointer.js';
import type { DiscoveryOptions, SelectorManifestEntry } from './types.js';

/**
 * The `definition` block of an environment's `params`:
 *
 * ```yaml
 * definition:
 *   include: ['^constant_.*$']        # regexes on the leaf key or its full pointer
 *   exclude: ['^/timing/']            # exclusion wins over inclusion
 *   selector_manifest:
 *     - pointer: /der_params/pv_scale # replaces the discovered selector here
 *       alias: pv_scale               # custom alias (UID <env>.definition.pv_scale)
 *       low: 0                        # custom Box bounds (both or neither)
 *       high: 5
 *     - pointer: /step_size
 *       values: [900, 1800, 3600]     # a Discrete selector for an integral parameter
 *       center: 1800                  # optional normalisation override
 *       scale: 900
 * ```
 */
const manifestEntryFields = z.strictObject({
  pointer: z.string(),
  alias: z.string().min(1).optional(),
  low: z.number().optional(),
  high: z.number().optional(),
  values: z.array(z.number()).min(1).optional(),
  center: z.number().optional(),
  scale: z.number().optional(),
});

type RawManifestEntry = z.infer<typeof manifestEntryFields>;

/** A problem inside one manifest entry, at a path relative to the entry. */
interface EntryProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

const manifestEntrySchema = manifestEntryFields.superRefine((entry, context) => {
  for (const problem of manifestEntryProblems(entry)) {
    context.addIssue({ code: 'custom', path: [...problem.path], message: problem.message });
  }
});

const regexSource = z.string().superRefine((source, context) => {
  const problem = regexProblem(source);
  if (problem !== null) context.addIssue({ code: 'custom', message: problem });
});

/**
 * The zod schema of an environment's `definition` block, with every rule
 * `parseDiscoveryOptions` applies: keys and types, regexes that compile,
 * manifest pointers, bounds, values and normalisation, no pointer declared
 * twice. A component's params schema embeds it so a run file's `definition`
 * is checked, every problem with its path, before anything runs.
 *
 * @example
 * ```ts
 * definitionBlockSchema.safeParse({ include: ['('] }).error?.issues[0];
 * // { code: 'custom', path: ['include', 0],
 * //   message: '"(" is not a valid regular expression (Invalid regular expression: /(/: Unterminated group)' }
 * ```
 */
export const definitionBlockSchema = z
  .strictObject({
    include: z.array(regexSource).optional(),
    exclude: z.array(regexSource).optional(),
    selector_manifest: z.array(manifestEntrySchema).optional(),
  })
  .superRefine((block, context) => {
    const seenPointers = new Map<string, number>();
    (block.selector_manifest ?? []).forEach((entry, index) => {
      const earlier = seenPointers.get(entry.pointer);
      if (earlier !== undefined) {
        context.addIssue({
          code: 'custom',
          path: ['selector_manifest', index, 'pointer'],
          message: `"${entry.pointer}" is already declared by definition.selector_manifest[${earlier}]`,
        });
      } else seenPointers.set(entry.pointer, index);
    });
  });

/**
 * No narrowing, no manifest: every finite numeric leaf is a selector.
 *
 * @example
 * ```ts
 * defaultDiscoveryOptions; // { include: [], exclude: [], selectorManifest: [] }
 * ```
 */
export const defaultDiscoveryOptions: DiscoveryOptions = deepFreeze({
  include: [],
  exclude: [],
  selectorManifest: [],
});

/**
 * Validate an environment's raw `definition` block into `DiscoveryOptions`
 * with {@link definitionBlockSchema}. `undefined` or `null` means no block.
 * Every error names the field, e.g. `definition.selector_manifest[0].high`,
 * and what was expected.
 *
 * @throws DefinitionConfigError listing every problem of the block.
 * @example
 * ```ts
 * parseDiscoveryOptions({ include: ['^constant_'], selector_manifest: [{ pointer: '/n', values: [1, 2] }] });
 * // { include: ['^constant_'], exclude: [],
 * //   selectorManifest: [{ pointer: '/n', space: { type: 'Discrete', n: 2, values: [1, 2] } }] }
 * parseDiscoveryOptions({ include: ['('] });
 * // throws DefinitionConfigError: definition.include[0]: "(" is not a valid regular expression (...)
 * ```
 */
export function parseDiscoveryOptions(raw: unknown): DiscoveryOptions {
  if (raw === undefined || raw === null) return defaultDiscoveryOptions;
  const parsed = definitionBlockSchema.safeParse(raw);
  if (!parsed.success) {
    const details = parsed.error.issues
      .map((issue) => `${fieldPath(issue.path)}: ${issue.message}`)
      .join('; ');
    throw new DefinitionConfigError(details);
  }
  return deepFreeze({
    include: parsed.data.include ?? [],
    exclude: parsed.data.exclude ?? [],
    selectorManifest: (parsed.data.selector_manifest ?? []).map(normaliseManifestEntry),
  });
}

function fieldPath(path: readonly PropertyKey[]): string {
  let text = 'definition';
  for (const segment of path) {
    text += typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`;
  }
  return text;
}

function regexProblem(source: string): string | null {
  try {
    new RegExp(source);
    return null;
  } catch (error) {
    return `"${source}" is not a valid regular expression (${(error as Error).message})`;
  }
}

function manifestEntryProblems(entry: RawManifestEntry): EntryProblem[] {
  const problems: EntryProblem[] = [];
  try {
    if (parsePointer(entry.pointer).length === 0) throw new JsonPointerError('it is the root');
  } catch (error) {
    problems.push({
      path: ['pointer'],
      message: `expected an RFC 6901 pointer to a scenario leaf, got "${entry.pointer}" (${(error as Error).message})`,
    });
  }
  const hasBounds = entry.low !== undefined || entry.high !== undefined;
  if (hasBounds && entry.values !== undefined) {
    problems.push({
      path: [],
      message: 'give either low/high (a Box) or values (a Discrete), not both',
    });
  } else if (entry.values !== undefined) {
    entry.values.forEach((value, index) => {
      if (!Number.isFinite(value)) {
        problems.push({ path: ['values', index], message: 'expected a finite number' });
      } else if (entry.values?.indexOf(value) !== index) {
        problems.push({ path: ['values', index], message: `${value} is listed twice` });
      }
    });
  } else if (hasBounds) {
    const { low, high } = entry;
    if (low === undefined || high === undefined) {
      problems.push({ path: [], message: 'low and high must be given together' });
    } else if (!Number.isFinite(low) || !Number.isFinite(high) || low > high) {
      problems.push({
        path: [],
        message: `expected finite bounds with low <= high, got [${low}, ${high}]`,
      });
    }
  }
  if (entry.center !== undefined || entry.scale !== undefined) {
    if (entry.center === undefined || entry.scale === undefined) {
      problems.push({ path: [], message: 'center and scale must be given together' });
    } else {
      if (!Number.isFinite(entry.center)) {
        problems.push({ path: ['center'], message: 'expected a finite number' });
      }
      if (!Number.isFinite(entry.scale) || entry.scale <= 0) {
        problems.push({
          path: ['scale'],
          message: `expected a finite number > 0, got ${entry.scale}`,
        });
      }
    }
  }
  return problems;
}

/** An entry that passed {@link manifestEntryProblems}, as `DiscoveryOptions` hold it. */
function normaliseManifestEntry(entry: RawManifestEntry): SelectorManifestEntry {
  const space: Space | undefined =
    entry.values !== undefined
      ? { type: 'Discrete', n: entry.values.length, values: entry.values }
      : entry.low !== undefined && entry.high !== undefined
        ? { type: 'Box', low: entry.low, high: entry.high }
        : undefined;
  const normalisation =
    entry.center !== undefined && entry.scale !== undefined
      ? { center: entry.center, scale: entry.scale }
      : undefined;
  return {
    pointer: entry.pointer,
    ...(entry.alias !== undefined ? { alias: entry.alias } : {}),
    ...(space !== undefined ? { space } : {}),
    ...(normalisation !== undefined ? { normalisation } : {}),
  };
}
