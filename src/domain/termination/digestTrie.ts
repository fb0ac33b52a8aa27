/**
 * A persistent (immutable, structurally shared) string-to-string map made of
 * plain JSON arrays, so that a termination state stays plain data and adding
 * one evaluation digest copies a few small arrays instead of the whole map.
 *
 * A node is a bucket (`[key, a, b, c, d, ...]`, never empty: a record digest
 * as its four 32-bit words, any other value as the string `a`) or a branch of
 * 8 slots, each a node or `null`. {@link trieHash} places consecutive ids on
 * one path, so an insert copies the nodes the last insert just copied. The
 * root carries the layout's scheme as its 9th item; {@link currentTrie}
 * rebuilds a trie of an older scheme once.
 *
 * Not a `Map` (states are shared, so each checkpoint would copy it whole) nor
 * a library (none is a dependency, and theirs are not JSON): the measurements
 * and the schemes tried are in docs/performance-notes.md.
 */
import { digestText, digestWordsOf } from './recordDigest.js';

export type DigestTrie = DigestTrieNode | null;
/** A bucket of (key, value) entries, or a branch of slots. */
export type DigestTrieNode = (number | string)[] | (DigestTrieNode | null)[];
type Bucket = (string | number)[];
type Branch = (DigestTrieNode | null)[];

/** Every level is 8 slots: each insert copies one node per level, and a narrow node is a small copy. */
const BITS = 3;
/** The hash has 30 bits (a small integer in V8): 10 × 3 bits, levels 0 to 9. */
const LAST_LEVEL = 9;
/** Items an entry takes in a bucket: the key and a value's four words. */
const STRIDE = 5;
/**
 * Entries a bucket holds before it splits into a branch (memory vs copy
 * cost): with the placement's locality a bucket's copies die young.
 */
const BUCKET_CAPACITY = 16;
/** The placement scheme, stored after the root branch's 8 slots. */
const SCHEME = 4;
const ROOT_SLOTS = 1 << BITS;
/** Trailing characters the top levels leave out: those that change from one id to the next. */
const TAIL = 3;
/** Levels placed by the id without its tail of 3, then 5 by the id without its last character, then 2 by the whole id. */
const TOP_LEVELS = 3;
const MIDDLE_LEVELS = 5;
const TOP_BITS = TOP_LEVELS * BITS;
const MIDDLE_BITS = MIDDLE_LEVELS * BITS;
const DEEP_BITS = (LAST_LEVEL + 1 - TOP_LEVELS - MIDDLE_LEVELS) * BITS;

/**
 * The four words of the digest being added or looked up (see
 * {@link trieAddDigest}); one array for every call, as the digest's own.
 */
export const pendingDigest = new Int32Array(4);

/**
 * The value stored for `key`, or `undefined` (a record digest as its text).
 *
 * @example
 * ```ts
 * trieGet(trieSet(null, 'e1', 'abc'), 'e1'); // 'abc'
 * ```
 */
export function trieGet(trie: DigestTrie, key: string): string | undefined {
  const current = currentTrie(trie);
  if (current === null) return undefined;
  const at = find(current as Branch, key, trieHash(key));
  return at < 0 ? undefined : valueAt(foundBucket as Bucket, at);
}

/**
 * A new trie with `key` set to `value`; `trie` itself is left unchanged.
 *
 * @example
 * ```ts
 * const before = trieSet(null, 'e1', 'abc');
 * const after = trieSet(before, 'e2', 'def');
 * [trieGet(before, 'e2'), trieGet(after, 'e2')]; // [undefined, 'def']
 * ```
 */
export function trieSet(trie: DigestTrie, key: string, value: string): DigestTrieNode {
  const root = rootOf(currentTrie(trie));
  const hash = trieHash(key);
  const text = stage(value);
  const at = find(root, key, hash);
  return at < 0 ? added(root, key, hash, text) : replaced(root, hash, at, text);
}

/**
 * One walk for a lookup and an insert: the value already stored for `key`
 * (nothing copied), or a new trie with `key` set to `value` (a trie of the
 * current scheme, see {@link currentTrie}; `trie` itself is left unchanged).
 *
 * @example
 * ```ts
 * const trie = trieAdd(null, 'e1', trieHash('e1'), 'abc'); // a new trie holding e1
 * trieAdd(trie as DigestTrieNode, 'e1', trieHash('e1'), 'def'); // 'abc'
 * ```
 */
export function trieAdd(
  trie: DigestTrie,
  key: string,
  hash: number,
  value: string,
): DigestTrieNode | string {
  const root = rootOf(trie);
  const at = find(root, key, hash);
  if (at >= 0) return valueAt(foundBucket as Bucket, at);
  return added(root, key, hash, stage(value));
}

/**
 * {@link trieAdd} for the record digest in {@link pendingDigest}, without its
 * text: a new trie holding it for `key`, or, when `key` is already there,
 * `true` (the same digest), `false` (another digest) or the text stored
 * (a value that is not a record digest's words, e.g. a legacy sha256).
 *
 * @example
 * ```ts
 * recordDigestWords('e1', 0, null, null, { objective: 1 }, pendingDigest);
 * const trie = trieAddDigest(null, 'e1', trieHash('e1')); // a new trie holding e1
 * trieAddDigest(trie as DigestTrieNode, 'e1', trieHash('e1')); // true
 * ```
 */
export function trieAddDigest(
  trie: DigestTrie,
  key: string,
  hash: number,
): DigestTrieNode | boolean | string {
  // One walk: the branches passed are kept, to be copied on the way back only if the key is new.
  let node: DigestTrieNode | null = rootOf(trie);
  let level = 0;
  while (node !== null && !isBucket(node)) {
    path[level] = node as Branch;
    node = (node as Branch)[slotOf(hash, level)] ?? null;
    level++;
  }
  let replacement: DigestTrieNode;
  if (node === null) replacement = insert(null, hash, key, null, level);
  else {
    const at = indexInBucket(node, key);
    if (at >= 0) {
      path.fill(null);
      const a = node[at + 1]!;
      if (typeof a === 'string') return a;
      return (
        a === pendingDigest[0] &&
        node[at + 2] === pendingDigest[1] &&
        node[at + 3] === pendingDigest[2] &&
        node[at + 4] === pendingDigest[3]
      );
    }
    replacement = insert(node, hash, key, null, level);
  }
  while (level > 0) {
    level--;
    const branch = copyOfBranch(path[level] as Branch);
    path[level] = null;
    branch[slotOf(hash, level)] = replacement;
    replacement = branch;
  }
  return replacement;
}

/** A copy of a branch (8 slots, the root's 9 with its scheme), by hand: `slice` is a call that costs more than the copy. */
function copyOfBranch(branch: Branch): Branch {
  const size = branch.length;
  const copy = new Array<DigestTrieNode | null>(size);
  for (let index = 0; index < size; index++) copy[index] = branch[index]!;
  return copy;
}

/** The branches {@link trieAddDigest} walked through, kept so a walk allocates nothing; cleared after. */
const path: (Branch | null)[] = new Array<Branch | null>(LAST_LEVEL + 1).fill(null);

/**
 * Every `[key, value]` pair, in no particular order (a record digest as its text).
 *
 * @example
 * ```ts
 * [...trieEntries(trieSet(null, 'e1', 'abc'))]; // [['e1', 'abc']]
 * ```
 */
export function* trieEntries(trie: DigestTrie): Generator<[string, string]> {
  if (trie === null) return;
  if (typeof trie[0] === 'number') {
    // A bucket of scheme 1: (hash, key, value) triples.
    for (let index = 0; index < trie.length; index += 3) {
      yield [trie[index + 1] as string, trie[index + 2] as string];
    }
    return;
  }
  if (isBucket(trie)) {
    // A bucket of schemes 2 and 3 holds (key, text) pairs; one of scheme 4 has a number third.
    const stride = trie.length >= STRIDE && typeof trie[2] === 'number' ? STRIDE : 2;
    for (let index = 0; index < trie.length; index += stride) {
      yield [
        trie[index] as string,
        stride === 2 ? (trie[index + 1] as string) : valueAt(trie, index),
      ];
    }
    return;
  }
  for (const child of trie as Branch) if (Array.isArray(child)) yield* trieEntries(child);
}

/**
 * `trie` itself when it is placed by the current {@link trieHash}, else the
 * same entries rebuilt so (a trie from a snapshot written before: O(n), once).
 *
 * @example
 * ```ts
 * const trie = trieSet(null, 'e1', 'abc');
 * currentTrie(trie) === trie; // true
 * ```
 */
export function currentTrie(trie: DigestTrie): DigestTrie {
  if (trie === null) return null;
  if (trie.length === ROOT_SLOTS + 1 && trie[ROOT_SLOTS] === (SCHEME as unknown)) return trie;
  let rebuilt: DigestTrie = null;
  for (const [key, value] of trieEntries(trie)) rebuilt = trieSet(rebuilt, key, value);
  return rebuilt;
}

/** The root branch of a current trie, or a new empty one. */
function rootOf(trie: DigestTrie): Branch {
  if (trie !== null) return trie as Branch;
  const root: Branch = new Array<DigestTrieNode | null>(ROOT_SLOTS).fill(null);
  root.push(SCHEME as unknown as null);
  return root;
}

/** The bucket {@link find} found its key in. */
let foundBucket: Bucket | null = null;

/** Where `key` sits (its index in {@link foundBucket}), or -1. */
function find(root: Branch, key: string, hash: number): number {
  let node: DigestTrieNode | null = root;
  let level = 0;
  while (node !== null && !isBucket(node)) {
    node = (node as Branch)[slotOf(hash, level)] ?? null;
    level++;
  }
  if (node === null) return -1;
  foundBucket = node;
  return indexInBucket(node, key);
}

/**
 * Words for `value` in {@link pendingDigest} when it is a record digest's
 * text, and then `null`; else `value` itself, to be kept as text.
 */
function stage(value: string): string | null {
  return digestWordsOf(value, pendingDigest) ? null : value;
}

/** The value of the entry at `at`: its text, or the record digest of its words. */
function valueAt(bucket: Bucket, at: number): string {
  const a = bucket[at + 1]!;
  if (typeof a === 'string') return a;
  return digestText(
    a,
    bucket[at + 2] as number,
    bucket[at + 3] as number,
    bucket[at + 4] as number,
  );
}

/** `root` with a new entry for `key` (`text`, or the words of {@link pendingDigest} when `null`). */
function added(root: Branch, key: string, hash: number, text: string | null): Branch {
  return insert(root, hash, key, text, 0) as Branch;
}

/** `root` with the entry at `at` of the bucket `key` reaches given a new value. */
function replaced(root: Branch, hash: number, at: number, text: string | null): Branch {
  return replace(root, hash, at, text, 0) as Branch;
}

function replace(
  node: DigestTrieNode,
  hash: number,
  at: number,
  text: string | null,
  level: number,
): DigestTrieNode {
  const copy = node.slice();
  if (isBucket(node)) {
    writeValue(copy as Bucket, at, text);
    return copy;
  }
  const slot = slotOf(hash, level);
  copy[slot] = replace(copy[slot] as DigestTrieNode, hash, at, text, level + 1);
  return copy as DigestTrieNode;
}

function insert(
  node: DigestTrieNode | null,
  hash: number,
  key: string,
  text: string | null,
  level: number,
): DigestTrieNode {
  if (node === null) {
    const bucket = new Array<string | number>(STRIDE);
    bucket[0] = key;
    writeValue(bucket, 0, text);
    return bucket;
  }
  if (isBucket(node)) {
    if (node.length < BUCKET_CAPACITY * STRIDE || level >= LAST_LEVEL) {
      return appended(node, key, text);
    }
    return insert(split(node, level), hash, key, text, level);
  }
  const branch = (node as Branch).slice();
  const slot = slotOf(hash, level);
  branch[slot] = insert(branch[slot] ?? null, hash, key, text, level + 1);
  return branch;
}

/** `bucket` with one more entry, allocated at its final size. */
function appended(bucket: Bucket, key: string, text: string | null): Bucket {
  const size = bucket.length;
  const copy = new Array<string | number>(size + STRIDE);
  for (let index = 0; index < size; index++) copy[index] = bucket[index]!;
  copy[size] = key;
  writeValue(copy, size, text);
  return copy;
}

/** The value of the entry at `at`: `text`, or the words of {@link pendingDigest} when `null`. */
function writeValue(bucket: Bucket, at: number, text: string | null): void {
  if (text === null) {
    bucket[at + 1] = pendingDigest[0]!;
    bucket[at + 2] = pendingDigest[1]!;
    bucket[at + 3] = pendingDigest[2]!;
    bucket[at + 4] = pendingDigest[3]!;
  } else {
    bucket[at + 1] = text;
    bucket[at + 2] = 0;
    bucket[at + 3] = 0;
    bucket[at + 4] = 0;
  }
}

function split(bucket: Bucket, level: number): Branch {
  // Two passes, so each child is allocated once at its final size.
  const entries = bucket.length / STRIDE;
  if (splitSlots.length < entries) splitSlots = new Int8Array(entries);
  const slots = splitSlots;
  const sizes = splitSizes.fill(0);
  for (let entry = 0; entry < entries; entry++) {
    const slot = slotOf(trieHash(bucket[entry * STRIDE] as string), level);
    slots[entry] = slot;
    sizes[slot]! += STRIDE;
  }
  const branch: Branch = new Array<DigestTrieNode | null>(1 << BITS).fill(null);
  for (let slot = 0; slot < 1 << BITS; slot++) {
    if (sizes[slot]! > 0) branch[slot] = new Array<string | number>(sizes[slot]!);
    sizes[slot] = 0;
  }
  for (let entry = 0; entry < entries; entry++) {
    const slot = slots[entry]!;
    const child = branch[slot] as Bucket;
    const at = sizes[slot]!;
    for (let item = 0; item < STRIDE; item++) child[at + item] = bucket[entry * STRIDE + item]!;
    sizes[slot] = at + STRIDE;
  }
  return branch;
}

/** {@link split}'s slot of each entry and size of each child, kept between calls. */
let splitSlots = new Int8Array(BUCKET_CAPACITY + 1);
const splitSizes = new Int32Array(1 << BITS);

/** Where `key` sits in `bucket` (its index), or -1. */
function indexInBucket(bucket: Bucket, key: string): number {
  // Ids in a bucket mostly differ in their last character: compare it before the whole key.
  const last = key.length - 1;
  const lastUnit = key.charCodeAt(last);
  for (let index = 0; index < bucket.length; index += STRIDE) {
    const stored = bucket[index] as string;
    if (
      stored.length === key.length &&
      (last < 0 || stored.charCodeAt(last) === lastUnit) &&
      stored === key
    ) {
      return index;
    }
  }
  return -1;
}

function isBucket(node: DigestTrieNode): node is Bucket {
  return typeof node[0] === 'string';
}

function slotOf(hash: number, level: number): number {
  return (hash >>> (level * BITS)) & ((1 << BITS) - 1);
}

/**
 * The hash that places `key` in the trie, from FNV-1a: 9 bits over the key
 * without its last 3 UTF-16 code units for the top three levels, 15 bits over
 * the key without its last one for the next five, 6 bits over the whole key
 * for the deepest two. Consecutive ids share a path down to one bucket; the
 * deep bits hash every character, so ids that differ anywhere spread out.
 *
 * @example
 * ```ts
 * trieHash('e1'); // 932081148
 * ```
 */
export function trieHash(key: string): number {
  const cutTop = key.length - TAIL;
  const cutMiddle = key.length - 1;
  let hash = 0x811c9dc5;
  let top = hash;
  let middle = hash;
  for (let index = 0; index < key.length; index++) {
    if (index === cutTop) top = hash;
    if (index === cutMiddle) middle = hash;
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  }
  return (
    (((hash ^ (hash >>> 15)) & ((1 << DEEP_BITS) - 1)) << (TOP_BITS + MIDDLE_BITS)) |
    (((middle ^ (middle >>> 15)) & ((1 << MIDDLE_BITS) - 1)) << TOP_BITS) |
    ((top ^ (top >>> 15)) & ((1 << TOP_BITS) - 1))
  );
}
