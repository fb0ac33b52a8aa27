import { isPlainObject, type JsonObject, type JsonValue } from '../shared/json.js';
import { DefinitionConfigError, SelectorDiscoveryError } from './errors.js';
import { duplicateDeclaredKey, orderedKeys } from './keyOrder.js';
import { escapePointerToken } from './pointer.js';
import type { DiscoveryOptions, KeyOrder, SelectorManifestEntry } from './types.js';

/**
 * The structural half of selector discovery: which numeric leaves are
 * exposed, in declaration order, under which alias and UID. Spaces and
 * normalisation are added by `deriveSelectors` (from the current values) or
 * by a provider (anchored to its proposal).
 */
export interface DiscoveredLeaf {
  readonly pointer: string;
  readonly alias: string;
  readonly uid: string;
  readonly value: number;
  /** Index into `DiscoveryOptions.selectorManifest`, or -1 when discovered. */
  readonly manifestIndex: number;
}

interface NumericLeaf {
  readonly pointer: string;
  /** The unescaped last token (a mapping key or a list index). */
  readonly key: string;
  readonly inMapping: boolean;
  readonly value: number;
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
): DiscoveredLeaf[] {
  const leaves: NumericLeaf[] = [];
  collectNumericLeaves(scenario, '', '', false, keyOrder, leaves);

  const manifestIndexByPointer = new Map<string, number>(
    options.selectorManifest.map((entry, index) => [entry.pointer, index]),
  );
  const nameCounts = new Map<string, number>();
  for (const leaf of leaves) {
    if (hasShortName(leaf)) nameCounts.set(leaf.key, (nameCounts.get(leaf.key) ?? 0) + 1);
  }
  const include = options.include.map((source) => new RegExp(source));
  const exclude = options.exclude.map((source) => new RegExp(source));
  const matches = (patterns: readonly RegExp[], leaf: NumericLeaf): boolean =>
    patterns.some((pattern) => pattern.test(leaf.key) || pattern.test(leaf.pointer));

  const exposed: DiscoveredLeaf[] = [];
  const pointerByUid = new Map<string, string>();
  const unmatchedManifest = new Set(manifestIndexByPointer.values());
  for (const leaf of leaves) {
    const manifestIndex = manifestIndexByPointer.get(leaf.pointer) ?? -1;
    const entry: SelectorManifestEntry | undefined = options.selectorManifest[manifestIndex];
    if (entry === undefined) {
      if (include.length > 0 && !matches(include, leaf)) continue;
      if (exclude.length > 0 && matches(exclude, leaf)) continue;
    }
    unmatchedManifest.delete(manifestIndex);
    const alias =
      entry?.alias ??
      (hasShortName(leaf) && nameCounts.get(leaf.key) === 1
        ? escapePointerToken(leaf.key)
        : leaf.pointer);
    const uid = `${environmentUid}.definition.${alias}`;
    const clash = pointerByUid.get(uid);
    if (clash !== undefined) {
      throw new SelectorDiscoveryError(
        `selectors at "${clash}" and "${leaf.pointer}" would share the UID "${uid}"; give one a different manifest alias`,
      );
    }
    pointerByUid.set(uid, leaf.pointer);
    exposed.push({ pointer: leaf.pointer, alias, uid, value: leaf.value, manifestIndex });
  }
  if (!requireManifestLeaves) return exposed;
  for (const index of unmatchedManifest) {
    const entry = options.selectorManifest[index];
    throw new DefinitionConfigError(
      `definition.selector_manifest[${index}].pointer: expected a finite number in the scenario at "${entry?.pointer}", found none`,
    );
  }
  return exposed;
}

function hasShortName(leaf: NumericLeaf): boolean {
  return leaf.inMapping && leaf.key !== '' && !isNumericToken(leaf.key);
}

/** Whether a key or index reads as a decimal number, e.g. `3`, `-1`, `0.5`. */
export function isNumericToken(token: string): boolean {
  return /^-?[0-9]+(\.[0-9]+)?$/.test(token);
}

function collectNumericLeaves(
  value: JsonValue,
  pointer: string,
  key: string,
  inMapping: boolean,
  keyOrder: KeyOrder,
  out: NumericLeaf[],
): void {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) out.push({ pointer, key, inMapping, value });
    return;
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item = value[index] as JsonValue;
      collectNumericLeaves(item, `${pointer}/${index}`, String(index), false, keyOrder, out);
    }
    return;
  }
  if (isPlainObject(value)) {
    const duplicate = duplicateDeclaredKey(keyOrder, pointer);
    if (duplicate !== undefined) {
      throw new SelectorDiscoveryError(
        `the mapping at "${pointer}" declares the key "${duplicate}" twice (for example 3 and "3"); both would resolve to "${pointer}/${escapePointerToken(duplicate)}"`,
      );
    }
    for (const childKey of orderedKeys(value, pointer, keyOrder)) {
      const child = value[childKey] as JsonValue;
      collectNumericLeaves(
        child,
        `${pointer}/${escapePointerToken(childKey)}`,
        childKey,
        true,
        keyOrder,
        out,
      );
    }
    return;
  }
  throw new SelectorDiscoveryError(
    `the scenario value at "${pointer}" is a ${typeof value}, which is not JSON`,
  );
}
