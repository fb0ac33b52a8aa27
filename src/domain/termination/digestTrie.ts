/**
 * A persistent (immutable, structurally shared) string-to-string map made of
 * plain JSON arrays, so that a termination state stays plain data and adding
 * one evaluation digest copies a few small arrays instead of the whole map.
 *
 * A node is either a bucket (`[key, value, key, value, ...]`, never empty, so
 * its first item is a string) or a branch of slots (each a node or `null`)
 * indexed by bits of the key's hash: 5 bits (32 slots) on the three top
 * levels, 3 bits (8 slots) below, so the deep, long-lived nodes an insert
 * copies stay small (less garbage for the collector to promote) and sparse
 * subtrees do not pay for 32 empty slots. Every copy is made at its exact
 * size: a pushed-to copy would carry up to half its length again as slack.
 *
 * Tries written before buckets lost their stored hash (`[hash, key, value,
 * ...]`, first item a number) are still read, and rewritten as pairs when an
 * insert copies them; the slot layout and the hash are unchanged, so such a
 * trie restored from an old snapshot finds every key.
 *
 * Why not a library or a Map: the state must stay plain JSON and every older
 * state must stay valid, so a mutable `Map`/`Set` would need a full copy per
 * checkpoint; of the persistent maps one could use, none is in node_modules
 * (the alternative measured was a plain `Map` copied per checkpoint: O(n)).
 */
export type DigestTrie = DigestTrieNode | null;
/** A bucket of (key, value) pairs, or a branch of slots. */
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
    const first = node[0];
    if (typeof first === 'string') {
      for (let index = 0; index < node.length; index += 2) {
        if (node[index] === key) return node[index + 1] as string;
      }
      return undefined;
    }
    if (typeof first === 'number') return legacyGet(node as Bucket, key, hash);
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
  const first = trie[0];
  if (typeof first === 'string' || typeof first === 'number') {
    const pairs = typeof first === 'string' ? trie : pairsOf(trie as Bucket);
    for (let index = 0; index < pairs.length; index += 2) {
      yield [pairs[index] as string, pairs[index + 1] as string];
    }
    return;
  }
  for (const child of trie as Branch) yield* trieEntries(child);
}

/**
 * The hash that places `key` in the trie: FNV-1a over UTF-16 code units, folded to 30 bits.
 *
 * @example
 * ```ts
 * trieHash('e1'); // an integer in [0, 2^30)
 * ```
 */
export function trieHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  }
  return (hash ^ (hash >>> 30)) & 0x3fffffff;
}

function insert(
  node: DigestTrieNode | null,
  hash: number,
  key: string,
  value: string,
  level: number,
): DigestTrieNode {
  if (node === null) return [key, value];
  const first = node[0];
  if (typeof first === 'string' || typeof first === 'number') {
    const pairs = typeof first === 'string' ? (node as Bucket) : pairsOf(node as Bucket);
    const size = pairs.length;
    for (let index = 0; index < size; index += 2) {
      if (pairs[index] === key) {
        const copy = pairs.slice();
        copy[index + 1] = value;
        return copy;
      }
    }
    if (size < BUCKET_CAPACITY * 2 || level >= LAST_LEVEL) return appended(pairs, key, value);
    return insert(split(pairs, level), hash, key, value, level);
  }
  const branch = (node as Branch).slice();
  const slot = slotOf(hash, level);
  branch[slot] = insert(branch[slot] ?? null, hash, key, value, level + 1);
  return branch;
}

/** `pairs` with one more pair, allocated at its final size. */
function appended(pairs: Bucket, key: string, value: string): Bucket {
  return pairs.concat(key, value);
}

function split(pairs: Bucket, level: number): Branch {
  const branch: Branch = new Array<DigestTrieNode | null>(1 << bitsAt(level)).fill(null);
  for (let index = 0; index < pairs.length; index += 2) {
    const key = pairs[index] as string;
    const slot = slotOf(trieHash(key), level);
    const child = branch[slot];
    branch[slot] =
      child === null || child === undefined
        ? [key, pairs[index + 1] as string]
        : appended(child as Bucket, key, pairs[index + 1] as string);
  }
  return branch;
}

function legacyGet(bucket: Bucket, key: string, hash: number): string | undefined {
  for (let index = 0; index < bucket.length; index += 3) {
    if (bucket[index] === hash && bucket[index + 1] === key) return bucket[index + 2] as string;
  }
  return undefined;
}

/** A legacy `[hash, key, value, ...]` bucket as pairs. */
function pairsOf(bucket: Bucket): Bucket {
  const pairs: Bucket = [];
  for (let index = 0; index < bucket.length; index += 3)
    pairs.push(bucket[index + 1]!, bucket[index + 2]!);
  return pairs;
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
