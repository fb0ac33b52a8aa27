import { createHash } from 'node:crypto';
import { ArenaError } from './errors.js';

/** Thrown when a value cannot be written as canonical JSON. */
export class CanonicalJsonError extends ArenaError {
  constructor(message: string) {
    super('CANONICAL_JSON', message);
  }
}

/** How non-finite numbers (NaN, ±Infinity) are written. */
export type NonFinitePolicy = 'reject' | 'tag';

/**
 * Canonical JSON: object keys sorted by UTF-16 code unit, no whitespace, arrays
 * in order, `undefined` object members dropped. Non-finite numbers are rejected,
 * or with `nonFinite: 'tag'` written as the tagged strings `"__nan__"`,
 * `"__inf__"` and `"__-inf__"` so that equal inputs always give equal text.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 * canonicalJson({ x: Number.NaN }, { nonFinite: 'tag' }); // '{"x":"__nan__"}'
 * ```
 */
export function canonicalJson(
  value: unknown,
  options: { nonFinite?: NonFinitePolicy } = {},
): string {
  return write(value, options.nonFinite ?? 'reject', null, null);
}

/**
 * Where a value sits, for an error message only: one per container on the
 * way down, so that no path text is made unless a value is refused.
 */
interface Place {
  readonly parent: Place | null;
  /** The key or index in the parent; null at the root. */
  readonly key: string | number | null;
}

function write(
  value: unknown,
  policy: NonFinitePolicy,
  parent: Place | null,
  key: string | number | null,
): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (Number.isFinite(value)) return JSON.stringify(value);
      if (policy === 'reject') {
        throw new CanonicalJsonError(
          `${pathOf(parent, key)} must be a finite number, got ${String(value)}`,
        );
      }
      return Number.isNaN(value) ? '"__nan__"' : value > 0 ? '"__inf__"' : '"__-inf__"';
    case 'object': {
      if (value instanceof Map) return write(Object.fromEntries(value), policy, parent, key);
      const here: Place = { parent, key };
      if (Array.isArray(value)) {
        let text = '[';
        for (let index = 0; index < value.length; index++) {
          const item: unknown = value[index];
          // A hole is skipped, as forEach skips it; an undefined item is written as null.
          if (item === undefined && !(index in value)) continue;
          if (index > 0) text += ',';
          text += write(item === undefined ? null : item, policy, here, index);
        }
        return `${text}]`;
      }
      const record = value as Record<string, unknown>;
      let text = '{';
      let first = true;
      for (const name of sortedKeys(record)) {
        const member = record[name];
        if (member === undefined) continue;
        if (!first) text += ',';
        first = false;
        text += `${JSON.stringify(name)}:${write(member, policy, here, name)}`;
      }
      return `${text}}`;
    }
    default:
      throw new CanonicalJsonError(
        `${pathOf(parent, key)} is a ${typeof value}, which JSON cannot hold`,
      );
  }
}

/** An object's keys by UTF-16 code unit; keys already in order (a record built so) are not sorted again. */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  for (let index = 1; index < keys.length; index++) {
    if (keys[index - 1]! > keys[index]!) return keys.sort();
  }
  return keys;
}

/** `$`, `$.a.b`, `$.list[2]`: the path of a value as error messages name it. */
function pathOf(parent: Place | null, key: string | number | null): string {
  const keys: (string | number)[] = [];
  for (let place: Place | null = { parent, key }; place !== null; place = place.parent) {
    if (place.key !== null) keys.push(place.key);
  }
  let path = '$';
  for (let index = keys.length - 1; index >= 0; index--) {
    const step = keys[index]!;
    path += typeof step === 'number' ? `[${step}]` : `.${step}`;
  }
  return path;
}

/**
 * Hex sha256 of bytes, or of a string's UTF-8.
 *
 * @example
 * ```ts
 * sha256Hex('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * sha256Hex(new TextEncoder().encode('abc')); // the same
 * ```
 */
export function sha256Hex(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
