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
const manifestEntrySchema = z.strictObject({
  pointer: z.string(),
  alias: z.string().min(1).optional(),
  low: z.number().optional(),
  high: z.number().optional(),
  values: z.array(z.number()).min(1).optional(),
  center: z.number().optional(),
  scale: z.number().optional(),
});

const definitionBlockSchema = z.strictObject({
  include: z.array(z.string()).optional(),
  exclude: z.array(z.string()).optional(),
  selector_manifest: z.array(manifestEntrySchema).optional(),
});

type RawManifestEntry = z.infer<typeof manifestEntrySchema>;

/** No narrowing, no manifest: every finite numeric leaf is a selector. */
export const defaultDiscoveryOptions: DiscoveryOptions = deepFreeze({
  include: [],
  exclude: [],
  selectorManifest: [],
});

/**
 * Validate an environment's raw `definition` block into `DiscoveryOptions`.
 * `undefined` or `null` means no block. Every error names the field, e.g.
 * `definition.selector_manifest[0].high`, and what was expected.
 *
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
    throw new DefinitionConfigError(`invalid definition block: ${details}`);
  }
  const include = parsed.data.include ?? [];
  const exclude = parsed.data.exclude ?? [];
  for (const [field, sources] of [
    ['include', include],
    ['exclude', exclude],
  ] as const) {
    sources.forEach((source, index) => {
      checkRegex(source, `definition.${field}[${index}]`);
    });
  }
  const manifest = (parsed.data.selector_manifest ?? []).map((entry, index) =>
    normaliseManifestEntry(entry, `definition.selector_manifest[${index}]`),
  );
  const seenPointers = new Map<string, number>();
  manifest.forEach((entry, index) => {
    const earlier = seenPointers.get(entry.pointer);
    if (earlier !== undefined) {
      throw new DefinitionConfigError(
        `definition.selector_manifest[${index}].pointer: "${entry.pointer}" is already declared by definition.selector_manifest[${earlier}]`,
      );
    }
    seenPointers.set(entry.pointer, index);
  });
  return deepFreeze({ include, exclude, selectorManifest: manifest });
}

function fieldPath(path: readonly PropertyKey[]): string {
  let text = 'definition';
  for (const segment of path) {
    text += typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`;
  }
  return text;
}

function checkRegex(source: string, field: string): void {
  try {
    new RegExp(source);
  } catch (error) {
    throw new DefinitionConfigError(
      `${field}: "${source}" is not a valid regular expression (${(error as Error).message})`,
      { cause: error },
    );
  }
}

function normaliseManifestEntry(entry: RawManifestEntry, field: string): SelectorManifestEntry {
  try {
    if (parsePointer(entry.pointer).length === 0) throw new JsonPointerError('it is the root');
  } catch (error) {
    throw new DefinitionConfigError(
      `${field}.pointer: expected an RFC 6901 pointer to a scenario leaf, got "${entry.pointer}" (${(error as Error).message})`,
      { cause: error },
    );
  }
  const space = manifestSpace(entry, field);
  const normalisation = manifestNormalisation(entry, field);
  return {
    pointer: entry.pointer,
    ...(entry.alias !== undefined ? { alias: entry.alias } : {}),
    ...(space !== undefined ? { space } : {}),
    ...(normalisation !== undefined ? { normalisation } : {}),
  };
}

function manifestSpace(entry: RawManifestEntry, field: string): Space | undefined {
  const hasBounds = entry.low !== undefined || entry.high !== undefined;
  if (hasBounds && entry.values !== undefined) {
    throw new DefinitionConfigError(
      `${field}: give either low/high (a Box) or values (a Discrete), not both`,
    );
  }
  if (entry.values !== undefined) {
    entry.values.forEach((value, index) => {
      if (!Number.isFinite(value)) {
        throw new DefinitionConfigError(`${field}.values[${index}]: expected a finite number`);
      }
      if (entry.values?.indexOf(value) !== index) {
        throw new DefinitionConfigError(`${field}.values[${index}]: ${value} is listed twice`);
      }
    });
    return { type: 'Discrete', n: entry.values.length, values: entry.values };
  }
  if (!hasBounds) return undefined;
  const { low, high } = entry;
  if (low === undefined || high === undefined) {
    throw new DefinitionConfigError(`${field}: low and high must be given together`);
  }
  if (!Number.isFinite(low) || !Number.isFinite(high) || low > high) {
    throw new DefinitionConfigError(
      `${field}: expected finite bounds with low <= high, got [${low}, ${high}]`,
    );
  }
  return { type: 'Box', low, high };
}

function manifestNormalisation(
  entry: RawManifestEntry,
  field: string,
): { center: number; scale: number } | undefined {
  if (entry.center === undefined && entry.scale === undefined) return undefined;
  if (entry.center === undefined || entry.scale === undefined) {
    throw new DefinitionConfigError(`${field}: center and scale must be given together`);
  }
  if (!Number.isFinite(entry.center)) {
    throw new DefinitionConfigError(`${field}.center: expected a finite number`);
  }
  if (!Number.isFinite(entry.scale) || entry.scale <= 0) {
    throw new DefinitionConfigError(
      `${field}.scale: expected a finite number > 0, got ${entry.scale}`,
    );
  }
  return { center: entry.center, scale: entry.scale };
}
