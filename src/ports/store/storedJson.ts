import { canonicalJson } from '../../domain/shared/canonicalJson.js';
import type { JsonValue } from '../../domain/shared/json.js';

const nonFiniteByTag: Readonly<Record<string, number>> = {
  __nan__: Number.NaN,
  __inf__: Number.POSITIVE_INFINITY,
  '__-inf__': Number.NEGATIVE_INFINITY,
};

/**
 * Write a JSON field of a record as canonical JSON. Non-finite numbers (a NaN
 * metric, say) are kept as canonical JSON's tagged strings and turned back into
 * numbers by `decodeStoredJson`.
 *
 * @example
 * ```ts
 * encodeStoredJson({ b: 1, a: Number.NaN }); // '{"a":"__nan__","b":1}'
 * ```
 */
export function encodeStoredJson(value: unknown): string {
  return canonicalJson(value, { nonFinite: 'tag' });
}

/**
 * Read a JSON field written by `encodeStoredJson`.
 *
 * @example
 * ```ts
 * decodeStoredJson('{"a":"__nan__","b":1}'); // { a: NaN, b: 1 }
 * ```
 */
export function decodeStoredJson(text: string): JsonValue {
  // a reviver costs a call per value: only a text that may hold a tag (raw, or with an escape) needs it
  if (!text.includes('"__') && !text.includes('\\u')) return JSON.parse(text) as JsonValue;
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === 'string' && Object.hasOwn(nonFiniteByTag, value)
      ? nonFiniteByTag[value]
      : value,
  ) as JsonValue;
}
