import type { KeyOrder } from './types.js';

/**
 * The key order of the subtree at `pointer`, with its pointers re-rooted so
 * that the subtree's own root is `''`. Environments receive the key order of
 * their whole `params`; the scenario lives at `params.scenario`.
 *
 * @example
 * ```ts
 * subKeyOrder({ '': ['scenario'], '/scenario': ['b', '3'], '/scenario/b': ['x'] }, '/scenario');
 * // { '': ['b', '3'], '/b': ['x'] }
 * ```
 */
export function subKeyOrder(keyOrder: KeyOrder, pointer: string): KeyOrder {
  if (pointer === '') return keyOrder;
  const subtree: Record<string, readonly string[]> = {};
  for (const [mappingPointer, keys] of Object.entries(keyOrder)) {
    if (mappingPointer === pointer) subtree[''] = keys;
    else if (mappingPointer.startsWith(`${pointer}/`)) {
      subtree[mappingPointer.slice(pointer.length)] = keys;
    }
  }
  return Object.freeze(subtree);
}

/**
 * The keys of `mapping` in declaration order: first the keys `keyOrder` lists
 * for `pointer` (those the mapping has), then any other own keys in
 * `Object.keys` order. Without an entry this is `Object.keys(mapping)`.
 *
 * @example
 * ```ts
 * orderedKeys({ '3': 1, b: 2 }, '', { '': ['b', '3'] }); // ['b', '3']
 * orderedKeys({ '3': 1, b: 2 }, '', {}); // ['3', 'b']
 * ```
 */
export function orderedKeys(
  mapping: Readonly<Record<string, unknown>>,
  pointer: string,
  keyOrder: KeyOrder,
): readonly string[] {
  const declared = keyOrder[pointer];
  const own = Object.keys(mapping);
  if (declared === undefined) return own;
  const ordered: string[] = [];
  const seen = new Set<string>();
  for (const key of declared) {
    if (!seen.has(key) && Object.hasOwn(mapping, key)) {
      ordered.push(key);
      seen.add(key);
    }
  }
  if (ordered.length === own.length) return ordered;
  for (const key of own) if (!seen.has(key)) ordered.push(key);
  return ordered;
}

/** The first key `keyOrder` lists twice for `pointer`, if any (a YAML `3` and `"3"`). */
export function duplicateDeclaredKey(keyOrder: KeyOrder, pointer: string): string | undefined {
  const declared = keyOrder[pointer];
  if (declared === undefined) return undefined;
  const seen = new Set<string>();
  for (const key of declared) {
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return undefined;
}
