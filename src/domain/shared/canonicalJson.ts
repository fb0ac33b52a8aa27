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
  const policy = options.nonFinite ?? 'reject';
  const parts: string[] = [];
  write(value, policy, parts, '$');
  return parts.join('');
}

function write(value: unknown, policy: NonFinitePolicy, out: string[], path: string): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      if (Number.isFinite(value)) {
        out.push(JSON.stringify(value));
        return;
      }
      if (policy === 'reject') {
        throw new CanonicalJsonError(`${path} must be a finite number, got ${String(value)}`);
      }
      out.push(Number.isNaN(value) ? '"__nan__"' : value > 0 ? '"__inf__"' : '"__-inf__"');
      return;
    case 'object': {
      if (Array.isArray(value)) {
        out.push('[');
        value.forEach((item, index) => {
          if (index > 0) out.push(',');
          write(item === undefined ? null : item, policy, out, `${path}[${index}]`);
        });
        out.push(']');
        return;
      }
      if (value instanceof Map) {
        write(Object.fromEntries(value), policy, out, path);
        return;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      out.push('{');
      keys.forEach((key, index) => {
        if (index > 0) out.push(',');
        out.push(JSON.stringify(key), ':');
        write(record[key], policy, out, `${path}.${key}`);
      });
      out.push('}');
      return;
    }
    default:
      throw new CanonicalJsonError(`${path} is a ${typeof value}, which JSON cannot hold`);
  }
}

/**
 * Hex sha256 of a UTF-8 string.
 *
 * @example
 * ```ts
 * sha256Hex('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
