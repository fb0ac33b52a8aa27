import { createHash, type Hash } from 'node:crypto';
import { canonicalJson, type NonFinitePolicy } from '../shared/canonicalJson.js';

const flushAt = 1 << 16;

/**
 * `sha256Hex(canonicalJson(value, options))`, computed without building the
 * whole canonical text: the canonical JSON is written in 64 KiB chunks
 * straight into the hash. Same bytes, same digest, a fraction of the memory,
 * which keeps revisions and fingerprints of 100k-leaf scenarios linear.
 * Values canonical JSON rejects are rejected with the same error.
 *
 * @example
 * ```ts
 * canonicalSha256({ b: 1, a: 2 }) === sha256Hex(canonicalJson({ a: 2, b: 1 })); // true
 * ```
 */
export function canonicalSha256(
  value: unknown,
  options: { nonFinite?: NonFinitePolicy } = {},
): string {
  const hasher = new CanonicalHasher(options.nonFinite ?? 'reject');
  if (!hasher.value(value)) {
    // Let canonical JSON throw its own, path-naming error.
    canonicalJson(value, options);
  }
  return hasher.digest();
}

/**
 * A sha256 fed with canonical JSON text: `text` appends pre-formatted
 * canonical text, `value` appends the canonical JSON of a value. Callers
 * that know a shape write it with `text` and leave the rest to `value`.
 */
export class CanonicalHasher {
  private chunk = '';
  private readonly hash: Hash = createHash('sha256');

  constructor(private readonly policy: NonFinitePolicy) {}

  /** Append canonical text as is. */
  text(canonicalText: string): void {
    this.chunk += canonicalText;
    if (this.chunk.length > flushAt) this.flush();
  }

  /** Append the canonical JSON of `value`; `false` when canonical JSON would reject it. */
  value(value: unknown): boolean {
    if (this.chunk.length > flushAt) this.flush();
    if (value === null) {
      this.chunk += 'null';
      return true;
    }
    switch (typeof value) {
      case 'boolean':
        this.chunk += value ? 'true' : 'false';
        return true;
      case 'string':
        this.chunk += JSON.stringify(value);
        return true;
      case 'number':
        if (Number.isFinite(value)) {
          this.chunk += JSON.stringify(value);
          return true;
        }
        if (this.policy === 'reject') return false;
        this.chunk += Number.isNaN(value) ? '"__nan__"' : value > 0 ? '"__inf__"' : '"__-inf__"';
        return true;
      case 'object':
        return this.container(value);
      default:
        return false;
    }
  }

  digest(): string {
    this.flush();
    return this.hash.digest('hex');
  }

  private flush(): void {
    this.hash.update(this.chunk, 'utf8');
    this.chunk = '';
  }

  private container(value: object): boolean {
    if (Array.isArray(value)) {
      this.chunk += '[';
      for (let index = 0; index < value.length; index++) {
        if (index > 0) this.chunk += ',';
        const item: unknown = value[index];
        if (!this.value(item === undefined ? null : item)) return false;
      }
      this.chunk += ']';
      return true;
    }
    if (value instanceof Map) return this.value(Object.fromEntries(value));
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    this.chunk += '{';
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      this.chunk += `${index > 0 ? ',' : ''}${JSON.stringify(key)}:`;
      if (!this.value(record[key])) return false;
    }
    this.chunk += '}';
    return true;
  }
}
