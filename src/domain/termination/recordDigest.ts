import { canonicalJson } from '../shared/canonicalJson.js';

/** Marks a record digest: not a base64url character, so never the start of a legacy sha256 digest. */
export const RECORD_DIGEST_MARK = '~';
/** Characters of a record digest: the mark and 22 base64url characters (128 bits). */
export const RECORD_DIGEST_LENGTH = 23;

const TAG_ABSENT = 0;
const TAG_NULL = 1;
const TAG_STRING = 2;
const TAG_NUMBER = 3;
const TAG_TEXT = 4;
const TAG_OBJECT = 5;
/** Added to a string tag when every code unit is below 256 and is written as one byte. */
const NARROW = 8;
/** Bumped if the encoding ever changes, so two encodings can never be confused. */
const ENCODING_VERSION = 1;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const MARK_CODE = RECORD_DIGEST_MARK.charCodeAt(0);

const tagged = { nonFinite: 'tag' } as const;

let bytes = new Uint8Array(1024);
let view = new DataView(bytes.buffer);
let length = 0;

/**
 * The digest a recorded outcome is remembered by, for duplicate detection: a
 * 128-bit hash (MurmurHash3 x86_128's block and finalisation steps) of a
 * binary encoding of the seed's canonical outcome, written as `~` and 22
 * base64url characters.
 *
 * Exactness: two outcomes get the same encoding exactly when their canonical
 * JSON texts (the ones `outcomeDigest` hashes) are equal. Strings are written
 * as length and UTF-16 code units, a finite number as its IEEE-754 bits (−0
 * as 0, as `JSON.stringify` writes it), and anything else (a non-finite
 * number, a nested value) as its canonical JSON text, which never equals a
 * number's; every part is tagged and self-delimiting (a string whose code
 * units all fit a byte is written a byte each, under its own tag). So a conflicting
 * re-send passes as identical only if two different encodings hash alike:
 * for data that is not built to collide, 2^-128 per re-send (a billion
 * conflicting re-sends a second for a billion years stay below 10^-20). The
 * hash is not cryptographic: someone who controls the outcomes and crafts a
 * collision on purpose gains only that the crafted outcome is ignored as a
 * duplicate (it is never recorded and changes no decision).
 *
 * Not sha256 (node:crypto): its native binding made it 40% of a checkpoint
 * (see docs/performance-notes.md).
 *
 * @throws CanonicalJsonError when a value is not JSON data (as `outcomeDigest`).
 * @example
 * ```ts
 * recordDigest('e0', 0, null, null, { objective: 0.9 }); // '~wUE0WFgt0HGOQehRODGAaD'
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
  recordDigestWords(evaluationId, episode, checkpointId, checkpointHash, metrics, words);
  return digestText(words[0]!, words[1]!, words[2]!, words[3]!);
}

const words = new Int32Array(4);

/**
 * {@link recordDigest} as its four 32-bit words, written into `out`: what a
 * digest trie keeps, without making the text.
 *
 * @throws CanonicalJsonError when a value is not JSON data.
 * @example
 * ```ts
 * const out = new Int32Array(4);
 * recordDigestWords('e0', 0, null, null, { objective: 0.9 }, out);
 * digestText(out[0]!, out[1]!, out[2]!, out[3]!); // '~wUE0WFgt0HGOQehRODGAaD'
 * ```
 */
export function recordDigestWords(
  evaluationId: string,
  episode: unknown,
  checkpointId: string | null,
  checkpointHash: string | null,
  metrics: object,
  out: Int32Array,
): void {
  length = 0;
  writeByte(ENCODING_VERSION);
  writeString(evaluationId);
  if (episode === undefined) writeByte(TAG_ABSENT);
  else writeValue(episode);
  writeNullableString(checkpointId);
  writeNullableString(checkpointHash);
  writeMetrics(metrics instanceof Map ? Object.fromEntries(metrics) : metrics);
  hash128(out);
}

/**
 * MurmurHash3 x86_128 over the encoding, zero-padded to whole 16-byte blocks
 * (the encoding delimits itself, and its length is mixed in at the end).
 */
function hash128(out: Int32Array): void {
  const size = length;
  const padded = (size + 15) & ~15;
  reserve(padded - size);
  for (let at = size; at < padded; at++) bytes[at] = 0;
  let h1 = 0x9747b28c;
  let h2 = 0x9747b28c;
  let h3 = 0x9747b28c;
  let h4 = 0x9747b28c;
  for (let at = 0; at < padded; at += 16) {
    let k1 = view.getUint32(at, true);
    let k2 = view.getUint32(at + 4, true);
    let k3 = view.getUint32(at + 8, true);
    let k4 = view.getUint32(at + 12, true);
    k1 = Math.imul(k1, 0x239b961b);
    k1 = (k1 << 15) | (k1 >>> 17);
    h1 ^= Math.imul(k1, 0xab0e9789);
    h1 = (h1 << 19) | (h1 >>> 13);
    h1 = (Math.imul(h1 + h2, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(k2, 0xab0e9789);
    k2 = (k2 << 16) | (k2 >>> 16);
    h2 ^= Math.imul(k2, 0x38b34ae5);
    h2 = (h2 << 17) | (h2 >>> 15);
    h2 = (Math.imul(h2 + h3, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(k3, 0x38b34ae5);
    k3 = (k3 << 17) | (k3 >>> 15);
    h3 ^= Math.imul(k3, 0xa1e38b93);
    h3 = (h3 << 15) | (h3 >>> 17);
    h3 = (Math.imul(h3 + h4, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(k4, 0xa1e38b93);
    k4 = (k4 << 18) | (k4 >>> 14);
    h4 ^= Math.imul(k4, 0x239b961b);
    h4 = (h4 << 13) | (h4 >>> 19);
    h4 = (Math.imul(h4 + h1, 5) + 0x32ac3b17) | 0;
  }
  h1 ^= size;
  h2 ^= size;
  h3 ^= size;
  h4 ^= size;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix32(h1);
  h2 = fmix32(h2);
  h3 = fmix32(h3);
  h4 = fmix32(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  out[0] = h1;
  out[1] = h2;
  out[2] = h3;
  out[3] = h4;
}

/**
 * The text of a record digest from its four words: the mark, 5 characters
 * (30 bits) from each word, then their top 2 bits in the last two.
 *
 * @example
 * ```ts
 * digestText(0, 0, 0, 0); // '~AAAAAAAAAAAAAAAAAAAAAA'
 * ```
 */
export function digestText(h1: number, h2: number, h3: number, h4: number): string {
  return String.fromCharCode(
    MARK_CODE,
    digit(h1, 0),
    digit(h1, 6),
    digit(h1, 12),
    digit(h1, 18),
    digit(h1, 24),
    digit(h2, 0),
    digit(h2, 6),
    digit(h2, 12),
    digit(h2, 18),
    digit(h2, 24),
    digit(h3, 0),
    digit(h3, 6),
    digit(h3, 12),
    digit(h3, 18),
    digit(h3, 24),
    digit(h4, 0),
    digit(h4, 6),
    digit(h4, 12),
    digit(h4, 18),
    digit(h4, 24),
    BASE64URL.charCodeAt((h1 >>> 30) | ((h2 >>> 30) << 2) | ((h3 >>> 30) << 4)),
    BASE64URL.charCodeAt(h4 >>> 30),
  );
}

/**
 * Whether `text` is the {@link digestText} of some words, and then those
 * words in `out` (the exact inverse: a text it would not write is `false`).
 *
 * @example
 * ```ts
 * const out = new Int32Array(4);
 * digestWordsOf('~AAAAAAAAAAAAAAAAAAAAAA', out); // true, out is [0, 0, 0, 0]
 * digestWordsOf('legacy sha256', out); // false
 * ```
 */
export function digestWordsOf(text: string, out: Int32Array): boolean {
  if (text.length !== RECORD_DIGEST_LENGTH || text.charCodeAt(0) !== MARK_CODE) return false;
  const tops = DIGIT_VALUES[text.charCodeAt(21)] ?? -1;
  const last = DIGIT_VALUES[text.charCodeAt(22)] ?? -1;
  if (tops < 0 || last < 0 || last > 3) return false;
  for (let word = 0; word < 4; word++) {
    let value = 0;
    for (let place = 4; place >= 0; place--) {
      const digitValue = DIGIT_VALUES[text.charCodeAt(1 + word * 5 + place)] ?? -1;
      if (digitValue < 0) return false;
      value = (value << 6) | digitValue;
    }
    const top = word < 3 ? (tops >>> (word * 2)) & 3 : last;
    out[word] = value | (top << 30);
  }
  return true;
}

/** The value of each base64url character by its code, -1 for any other. */
const DIGIT_VALUES = Int8Array.from({ length: 128 }, (_, code) =>
  BASE64URL.indexOf(String.fromCharCode(code)),
);

function fmix32(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function digit(word: number, shift: number): number {
  return BASE64URL.charCodeAt((word >>> shift) & 63);
}

/** The members `canonicalJson` writes (undefined ones dropped), sorted, as numbers where all are finite numbers. */
function writeMetrics(metrics: object): void {
  const record = metrics as Record<string, unknown>;
  // Object.keys, then drop what canonicalJson drops (for-in allocates more).
  const keys = Object.keys(record);
  let count = 0;
  let numeric = true;
  for (let index = 0; index < keys.length; index++) {
    const value = record[keys[index]!];
    if (value === undefined) continue;
    keys[count++] = keys[index]!;
    if (typeof value !== 'number' || !Number.isFinite(value)) numeric = false;
  }
  if (count !== keys.length) keys.length = count;
  if (!numeric) {
    writeText(canonicalJson(record, tagged));
    return;
  }
  sortKeys(keys);
  writeByte(TAG_OBJECT);
  writeUint32(keys.length);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    writeString(key);
    writeNumber(record[key] as number);
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
  const out = bytes;
  let at = length + 5;
  let narrow = true;
  // One byte a code unit while they fit (ids and metric names are ASCII), else two from the start.
  for (let index = 0; index < size; index++) {
    const unit = value.charCodeAt(index);
    if (unit > 0xff) {
      narrow = false;
      break;
    }
    out[at++] = unit;
  }
  if (!narrow) {
    at = length + 5;
    for (let index = 0; index < size; index++) {
      view.setUint16(at, value.charCodeAt(index), true);
      at += 2;
    }
  }
  out[length] = narrow ? tag + NARROW : tag;
  view.setUint32(length + 1, size, true);
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
}
