/**
 * A persistent (immutable, structurally shared) string-to-string map made of
 * plain JSON arrays, so that a termination state stays plain data and adding
 * one evaluation digest copies a few small arrays instead of the whole map.
 *
 * A node is either a bucket (`[hash, key, value, hash, key, value, ...]`,
 * never empty, so its first item is a number) or a branch of slots (each a
 * node or `null`) indexed by bits of the key's hash: 5 bits (32 slots) on the
 * three top levels, 3 bits (8 slots) below, so the deep, long-lived nodes an
 * insert copies stay small (less garbage for the collector to promote) and
 * sparse subtrees do not pay for 32 empty slots. The hash in a bucket lets a
 * lookup compare small integers instead of strings: a string compare reads the
 * stored key, a cache miss per entry once the trie outgrows the cache (a
 * third slower at a million ids). Every copy is made at its exact size: a
 * pushed-to copy carries up to half its length again as slack.
 *
 * Why not a library or a Map: the state must stay plain JSON and every older
 * state must stay valid (states are shared, never mutated), so a `Map` would
 * need a full copy per checkpoint (O(n): `new Map(previous).set(id, digest)`
 * measured ~960 µs per insert over the first 20k ids, this trie ~1 µs), and
 * no persistent map is among the dependencies (Immutable.js and the like are
 * not in node_modules, and their maps are class instances, not JSON).
 */
export type DigestTrie = DigestTrieNode | null;
/** A bucket of (hash, key, value) triples, or a branch of 32 slots. */
export type DigestTrieNode = (number | string)[] | (DigestTrieNode | null)[];
type Bucket = (number | string)[];
type Branch = (DigestTrieNode | null)[];

const WIDE_LEVELS = 3;
const WIDE_BITS = 5;
const NARROW_BITS = 3;
/** The hash has 30 bits (a small integer in V8): 3 × 5 + 5 × 3 bits, levels 0 to 7. */
const LAST_LEVEL = 7;
/** Entries a bucket holds before it splits into a branch (memory vs copy cost). */
const BUCKET_CAPACITY = 8;

/**
 * The value stored for `key`, or `undefined`.
 *
 * @example
 * ```ts
 * trieGet(trieSet(null, 'e1', 'abc'), 'e1'); // 'abc'
 * ```
 */
export function trieGet(trie: DigestTrie, key: string): string | undefined {
  return trieGetHashed(trie, key, trieHash(key));
}

/**
 * {@link trieGet} with the key's {@link trieHash} already computed.
 *
 * @example
 * ```ts
 * trieGetHashed(trie, 'e1', trieHash('e1')); // same as trieGet(trie, 'e1')
 * ```
 */
export function trieGetHashed(trie: DigestTrie, key: string, hash: number): string | undefined {
  let node: DigestTrieNode | null = trie;
  let level = 0;
  while (node !== null) {
    if (isBucket(node)) {
      for (let index = 0; index < node.length; index += 3) {
        if (node[index] === hash && node[index + 1] === key) return node[index + 2] as string;
      }
      return undefined;
    }
    node = (node as Branch)[slotOf(hash, level)] ?? null;
    level++;
  }
  return undefined;
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
  return insert(trie, trieHash(key), key, value, 0);
}

/**
 * {@link trieSet} with the key's {@link trieHash} already computed.
 *
 * @example
 * ```ts
 * trieSetHashed(null, 'e1', trieHash('e1'), 'abc'); // same as trieSet(null, 'e1', 'abc')
 * ```
 */
export function trieSetHashed(
  trie: DigestTrie,
  key: string,
  hash: number,
  value: string,
): DigestTrieNode {
  return insert(trie, hash, key, value, 0);
}

/**
 * Every `[key, value]` pair, in no particular order.
 *
 * @example
 * ```ts
 * [...trieEntries(trieSet(null, 'e1', 'abc'))]; // [['e1', 'abc']]
 * ```
 */
export function* trieEntries(trie: DigestTrie): Generator<[string, string]> {
  if (trie === null) return;
  if (isBucket(trie)) {
    for (let index = 0; index < trie.length; index += 3) {
      yield [trie[index + 1] as string, trie[index + 2] as string];
    }
    return;
  }
  for (const child of trie as Branch) yield* trieEntries(child);
}

function insert(
  node: DigestTrieNode | null,
  hash: number,
  key: string,
  value: string,
  level: number,
): DigestTrieNode {
  if (node === null) return [hash, key, value];
  if (isBucket(node)) {
    for (let index = 0; index < node.length; index += 3) {
      if (node[index] === hash && node[index + 1] === key) {
        const copy = node.slice();
        copy[index + 2] = value;
        return copy;
      }
    }
    if (node.length < BUCKET_CAPACITY * 3 || level >= LAST_LEVEL) {
      return appended(node, hash, key, value);
    }
    return insert(split(node, level), hash, key, value, level);
  }
  const branch = (node as Branch).slice();
  const slot = slotOf(hash, level);
  branch[slot] = insert(branch[slot] ?? null, hash, key, value, level + 1);
  return branch;
}

/** `bucket` with one more entry, allocated at its final size. */
function appended(bucket: Bucket, hash: number, key: string, value: string): Bucket {
  const size = bucket.length;
  const copy = new Array<number | string>(size + 3);
  for (let index = 0; index < size; index++) copy[index] = bucket[index]!;
  copy[size] = hash;
  copy[size + 1] = key;
  copy[size + 2] = value;
  return copy;
}

function split(bucket: Bucket, level: number): Branch {
  const branch: Branch = new Array<DigestTrieNode | null>(1 << bitsAt(level)).fill(null);
  for (let index = 0; index < bucket.length; index += 3) {
    const hash = bucket[index] as number;
    const slot = slotOf(hash, level);
    const child = branch[slot];
    const key = bucket[index + 1] as string;
    const value = bucket[index + 2] as string;
    branch[slot] =
      child === null || child === undefined
        ? [hash, key, value]
        : appended(child as Bucket, hash, key, value);
  }
  return branch;
}

function isBucket(node: DigestTrieNode): node is Bucket {
  return typeof node[0] === 'number';
}

function bitsAt(level: number): number {
  return level < WIDE_LEVELS ? WIDE_BITS : NARROW_BITS;
}

function slotOf(hash: number, level: number): number {
  const shift =
    level < WIDE_LEVELS
      ? level * WIDE_BITS
      : WIDE_LEVELS * WIDE_BITS + (level - WIDE_LEVELS) * NARROW_BITS;
  return (hash >>> shift) & ((1 << bitsAt(level)) - 1);
}

/**
 * The hash that places `key` in the trie: FNV-1a over UTF-16 code units, folded to 30 bits.
 *
 * @example
 * ```ts
 * trieHash('e1'); // 68865793
 * ```
 */
export function trieHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  }
  return (hash ^ (hash >>> 30)) & 0x3fffffff;
}
