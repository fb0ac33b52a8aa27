import { isPlainObject, type JsonObject, type JsonValue } from '../shared/json.js';
import { DefinitionConfigError, SelectorDiscoveryError } from './errors.js';
import { duplicateDeclaredKey, orderedKeys } from './keyOrder.js';
import { escapePointerToken } from './pointer.js';
import type { DiscoveryOptions, KeyOrder, SelectorManifestEntry } from './types.js';

/**
 * The structural half of selector discovery: which numeric leaves are
 * exposed, in declaration order, under which alias. Spaces and
 * normalisation are added by `deriveSelectors` (from the current values) or
 * by a provider (anchored to its proposal). Parallel arrays, one entry per
 * exposed leaf, because a scenario can hold hundreds of thousands of them.
 */
export interface DiscoveredLeaves {
  readonly pointers: readonly string[];
  readonly aliases: readonly string[];
  readonly values: readonly number[];
  /** Index into `DiscoveryOptions.selectorManifest`, or -1 when discovered. */
  readonly manifestIndexes: readonly number[];
}

/** The UID of a selector: `<environmentUid>.definition.<alias>`. */
export function selectorUid(environmentUid: string, alias: string): string {
  return `${environmentUid}.definition.${alias}`;
}

/** Every finite number leaf, in declaration order (parallel arrays). */
interface NumericLeaves {
  readonly pointers: string[];
  /** The unescaped mapping key of the leaf, or `null` for a list item. */
  readonly keys: (string | null)[];
  readonly values: number[];
}

/**
 * Walk `scenario` and return its exposed numeric leaves in declaration order.
 *
 * Decisions where the seed is silent:
 * - Short aliases are decided over *all* numeric leaves, before `include` /
 *   `exclude` narrow them, so narrowing never renames a selector.
 * - A short alias is the escaped key (`a/b` gives `a~1b`); it never starts
 *   with `/`, so it cannot clash with a full-pointer alias.
 * - A token is numeric when it reads as a decimal number (`3`, `-1`, `0.5`).
 * - A manifest entry always exposes its leaf, whatever `include`/`exclude` say.
 *   Its leaf must exist, unless `requireManifestLeaves` is `false` (a provider
 *   describing a candidate reports a lost leaf as an interface change).
 */
export function discoverLeaves(
  environmentUid: string,
  scenario: JsonObject,
  options: DiscoveryOptions,
  keyOrder: KeyOrder,
  { requireManifestLeaves = true }: { requireManifestLeaves?: boolean } = {},
): DiscoveredLeaves {
  const leaves: NumericLeaves = { pointers: [], keys: [], values: [] };
  collectNumericLeaves(scenario, '', keyOrder, leaves);
  const { pointers, keys, values } = leaves;

  const nameCounts = new Map<string, number>();
  for (const key of keys) {
    if (hasShortName(key)) nameCounts.set(key, (nameCounts.get(key) ?? 0) + 1);
  }
  const aliasAt = (index: number): string => {
    const key = keys[index] as string | null;
    return hasShortName(key) && nameCounts.get(key) === 1
      ? escapePointerToken(key)
      : (pointers[index] as string);
  };
  const { include, exclude, selectorManifest } = options;
  if (include.length === 0 && exclude.length === 0 && selectorManifest.length === 0) {
    return {
      pointers,
      aliases: pointers.map((_, index) => aliasAt(index)),
      values,
      manifestIndexes: pointers.map(() => -1),
    };
  }

  const manifestIndexByPointer = new Map<string, number>(
    selectorManifest.map((entry, index) => [entry.pointer, index]),
  );
  const includePatterns = include.map((source) => new RegExp(source));
  const excludePatterns = exclude.map((source) => new RegExp(source));
  const matches = (patterns: readonly RegExp[], index: number): boolean => {
    const pointer = pointers[index] as string;
    const key = keys[index] ?? pointer.slice(pointer.lastIndexOf('/') + 1);
    return patterns.some((pattern) => pattern.test(key) || pattern.test(pointer));
  };

  const exposed = {
    pointers: [] as string[],
    aliases: [] as string[],
    values: [] as number[],
    manifestIndexes: [] as number[],
  };
  const pointerByAlias = new Map<string, string>();
  const unmatchedManifest = new Set(manifestIndexByPointer.values());
  for (let index = 0; index < pointers.length; index++) {
    const pointer = pointers[index] as string;
    const manifestIndex = manifestIndexByPointer.get(pointer) ?? -1;
    const entry: SelectorManifestEntry | undefined = selectorManifest[manifestIndex];
    if (entry === undefined) {
      if (includePatterns.length > 0 && !matches(includePatterns, index)) continue;
      if (excludePatterns.length > 0 && matches(excludePatterns, index)) continue;
    }
    unmatchedManifest.delete(manifestIndex);
    const alias = entry?.alias ?? aliasAt(index);
    const clash = pointerByAlias.get(alias);
    if (clash !== undefined) {
      throw new SelectorDiscoveryError(
        `selectors at "${clash}" and "${pointer}" would share the UID "${selectorUid(environmentUid, alias)}"; give one a different manifest alias`,
      );
    }
    pointerByAlias.set(alias, pointer);
    exposed.pointers.push(pointer);
    exposed.aliases.push(alias);
    exposed.values.push(values[index] as number);
    exposed.manifestIndexes.push(manifestIndex);
  }
  if (!requireManifestLeaves) return exposed;
  for (const index of unmatchedManifest) {
    const entry = selectorManifest[index];
    throw new DefinitionConfigError(
      `definition.selector_manifest[${index}].pointer: expected a finite number in the scenario at "${entry?.pointer}", found none`,
    );
  }
  return exposed;
}

function hasShortName(key: string | null): key is string {
  return key !== null && key !== '' && !isNumericToken(key);
}

/** Whether a key or index reads as a decimal number, e.g. `3`, `-1`, `0.5`. */
export function isNumericToken(token: string): boolean {
  return /^-?[0-9]+(\.[0-9]+)?$/.test(token);
}

/** Collect the finite numbers under the container `value` at `pointer`. */
function collectNumericLeaves(
  value: JsonValue[] | JsonObject,
  pointer: string,
  keyOrder: KeyOrder,
  out: NumericLeaves,
): void {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      visit(value[index], pointer, String(index), null, keyOrder, out);
    }
    return;
  }
  const duplicate = duplicateDeclaredKey(keyOrder, pointer);
  if (duplicate !== undefined) {
    throw new SelectorDiscoveryError(
      `the mapping at "${pointer}" declares the key "${duplicate}" twice (for example 3 and "3"); both would resolve to "${pointer}/${escapePointerToken(duplicate)}"`,
    );
  }
  for (const key of orderedKeys(value, pointer, keyOrder)) {
    visit(value[key], pointer, escapePointerToken(key), key, keyOrder, out);
  }
}

/** One child: a number is a leaf, a container is walked, other JSON is skipped. */
function visit(
  child: unknown,
  parentPointer: string,
  token: string,
  key: string | null,
  keyOrder: KeyOrder,
  out: NumericLeaves,
): void {
  if (typeof child === 'number') {
    if (Number.isFinite(child)) {
      out.pointers.push(`${parentPointer}/${token}`);
      out.keys.push(key);
      out.values.push(child);
    }
    return;
  }
  if (child === null || typeof child === 'string' || typeof child === 'boolean') return;
  if (Array.isArray(child) || isPlainObject(child)) {
    collectNumericLeaves(
      child as JsonValue[] | JsonObject,
      `${parentPointer}/${token}`,
      keyOrder,
      out,
    );
    return;
  }
  throw new SelectorDiscoveryError(
    `the scenario value at "${parentPointer}/${token}" is a ${typeof child}, which is not JSON`,
  );
}
