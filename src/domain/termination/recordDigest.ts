import { hash } from 'node:crypto';
import { canonicalJson } from '../shared/canonicalJson.js';

/**
 * Characters of a record digest: the first 22 base64url characters of a
 * sha256, i.e. its first 132 bits (a legacy full digest has 43).
 */
export const RECORD_DIGEST_LENGTH = 22;

const TAG_ABSENT = 0;
const TAG_NULL = 1;
const TAG_STRING = 2;
const TAG_NUMBER = 3;
const TAG_TEXT = 4;
const TAG_OBJECT = 5;
/** Bumped if the encoding ever changes, so two encodings can never be confused. */
const ENCODING_VERSION = 1;

const tagged = { nonFinite: 'tag' } as const;

let bytes = new Uint8Array(1024);
let view = new DataView(bytes.buffer);
/** Views of the first n bytes, made once per length: `hash` then takes no allocation per call. */
let prefixes: Uint8Array[] = [];
let length = 0;

/**
 * The digest a recorded outcome is remembered by, for duplicate detection:
 * sha256 over a binary encoding of the seed's canonical outcome, cut to 132
 * bits (22 base64url characters). Two outcomes get the same encoding exactly
 * when their canonical JSON texts (the ones `outcomeDigest` hashes) are
 * equal: strings are written as length and UTF-16 code units, a finite
 * number as its IEEE-754 bits (−0 as 0, as `JSON.stringify` writes it), and
 * anything else (a non-finite number, a nested value) as its canonical JSON
 * text, which never equals a number's. It costs no number formatting and
 * hashes about half the bytes; the cut keeps 132 bits of a cryptographic
 * hash, so a conflicting re-send passes as identical only with probability
 * 2^-132, and crafting one would take about 2^66 sha256 evaluations.
 *
 * @throws CanonicalJsonError when a value is not JSON data (as `outcomeDigest`).
 * @example
 * ```ts
 * recordDigest('e0', 0, null, null, { objective: 0.9 }); // 'GL1ENLm9aO0m09uFK_q7ou'
 * recordDigest('e0', 0, null, null, { objective: -0 }) === recordDigest('e0', 0, null, null, { objective: 0 }); // true
 * ```
 */
export function recordDigest(
  evaluationId: string,
  episode: unknown,
  checkpointId: string | null,
  checkpointHash: string | null,
  metrics: object,
): string {
  length = 0;
  writeByte(ENCODING_VERSION);
  writeString(evaluationId);
  if (episode === undefined) writeByte(TAG_ABSENT);
  else writeValue(episode);
  writeNullableString(checkpointId);
  writeNullableString(checkpointHash);
  writeMetrics(metrics instanceof Map ? Object.fromEntries(metrics) : metrics);
  let prefix = prefixes[length];
  if (prefix === undefined) {
    prefix = bytes.subarray(0, length);
    prefixes[length] = prefix;
  }
  return flatPrefix(hash('sha256', prefix, 'base64url'));
}

/** The members `canonicalJson` writes (undefined ones dropped), sorted, as numbers where all are finite numbers. */
function writeMetrics(metrics: object): void {
  const record = metrics as Record<string, unknown>;
  const keys = Object.keys(record);
  let count = 0;
  let numeric = true;
  for (let index = 0; index < keys.length; index++) {
    const value = record[keys[index]!];
    if (value === undefined) continue;
    count++;
    if (typeof value !== 'number' || !Number.isFinite(value)) numeric = false;
  }
  if (!numeric) {
    writeText(canonicalJson(record, tagged));
    return;
  }
  sortKeys(keys);
  writeByte(TAG_OBJECT);
  writeUint32(count);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const value = record[key];
    if (value === undefined) continue;
    writeString(key);
    writeNumber(value as number);
  }
}

/**
 * Sorted by UTF-16 code units, as `Array.prototype.sort` sorts strings; by
 * insertion for the few keys an outcome has, because `sort` allocates a work
 * array of several hundred bytes even for two keys.
 */
function sortKeys(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort();
    return;
  }
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index]!;
    let at = index - 1;
    while (at >= 0 && keys[at]! > key) {
      keys[at + 1] = keys[at]!;
      at--;
    }
    keys[at + 1] = key;
  }
}

function writeValue(value: unknown): void {
  if (typeof value === 'number' && Number.isFinite(value)) writeNumber(value);
  else writeText(canonicalJson(value, tagged));
}

function writeNullableString(value: string | null): void {
  if (value === null) writeByte(TAG_NULL);
  else writeString(value);
}

function writeNumber(value: number): void {
  reserve(9);
  bytes[length] = TAG_NUMBER;
  view.setFloat64(length + 1, value === 0 ? 0 : value, true);
  length += 9;
}

function writeString(value: string): void {
  writeTagged(TAG_STRING, value);
}

function writeText(text: string): void {
  writeTagged(TAG_TEXT, text);
}

function writeTagged(tag: number, value: string): void {
  const size = value.length;
  reserve(5 + 2 * size);
  bytes[length] = tag;
  view.setUint32(length + 1, size, true);
  let at = length + 5;
  for (let index = 0; index < size; index++) {
    const unit = value.charCodeAt(index);
    bytes[at] = unit & 0xff;
    bytes[at + 1] = unit >>> 8;
    at += 2;
  }
  length = at;
}

function writeByte(value: number): void {
  reserve(1);
  bytes[length++] = value;
}

function writeUint32(value: number): void {
  reserve(4);
  view.setUint32(length, value, true);
  length += 4;
}

function reserve(extra: number): void {
  if (length + extra <= bytes.length) return;
  const grown = new Uint8Array(Math.max(bytes.length * 2, length + extra));
  grown.set(bytes.subarray(0, length));
  bytes = grown;
  view = new DataView(bytes.buffer);
  prefixes = [];
}

/** The first 22 characters as a string of their own: a `slice` would keep the 43-character one alive. */
function flatPrefix(digest: string): string {
  return String.fromCharCode(
    digest.charCodeAt(0),
    digest.charCodeAt(1),
    digest.charCodeAt(2),
    digest.charCodeAt(3),
    digest.charCodeAt(4),
    digest.charCodeAt(5),
    digest.charCodeAt(6),
    digest.charCodeAt(7),
    digest.charCodeAt(8),
    digest.charCodeAt(9),
    digest.charCodeAt(10),
    digest.charCodeAt(11),
    digest.charCodeAt(12),
    digest.charCodeAt(13),
    digest.charCodeAt(14),
    digest.charCodeAt(15),
    digest.charCodeAt(16),
    digest.charCodeAt(17),
    digest.charCodeAt(18),
    digest.charCodeAt(19),
    digest.charCodeAt(20),
    digest.charCodeAt(21),
  );
}
