/**
 * A persistent (immutable, structurally shared) string-to-string map made of
 * plain JSON arrays, so that a termination state stays plain data and adding
 * one evaluation digest copies a few small arrays instead of the whole map.
 *
 * A node is either a bucket (`[key, value, key, value, ...]`, never empty, so
 * its first item is a string) or a branch of slots (each a node or `null`)
 * indexed by 3 bits of the key's hash a level (8 slots), so every node an
 * insert copies is small (32-slot top levels made half again as much garbage) and
 * sparse subtrees pay for few empty slots. Every copy is made at its exact
 * size: a pushed-to copy carries up to half its length again as slack.
 *
 * The top three levels are placed by the key without its last 3 characters,
 * the deeper ones by the whole key (see {@link trieHash}): consecutive ids
 * share their top path, so an insert copies nodes the last inserts just
 * copied (hot in cache, dead young) instead of a random path through a large
 * trie; a run of 1M checkpoints went twice as fast. That locality is also why
 * buckets no longer store each key's hash (8 bytes an entry): the keys they
 * compare are recent, in cache. The root branch carries the scheme as a 9th
 * item; a trie placed by a former hash (restored from an older snapshot:
 * scheme 2 placed five top levels by the key's head, which left most of them
 * single-child chains copied on every insert, 6.8 branches a path at 50k ids
 * against 4.9 with three; before it, buckets `[hash, key, value, ...]`) is
 * rebuilt once by {@link currentTrie}.
 *
 * Why not a library or a Map: the state must stay plain JSON and every older
 * state must stay valid (states are shared, never mutated), so a `Map` would
 * need a full copy per checkpoint (O(n): `new Map(previous).set(id, digest)`
 * measured ~960 µs per insert over the first 20k ids, this trie 0.2-0.4 µs), and
 * no persistent map is among the dependencies (Immutable.js and the like are
 * not in node_modules, and their maps are class instances, not JSON).
 */
export type DigestTrie = DigestTrieNode | null;
/** A bucket of (key, value) pairs, or a branch of slots. */
export type DigestTrieNode = (number | string)[] | (DigestTrieNode | null)[];
type Bucket = string[];
type Branch = (DigestTrieNode | null)[];

/** Every level is 8 slots: each insert copies one node per level, and a narrow node is a small copy. */
const BITS = 3;
/** The hash has 30 bits (a small integer in V8): 10 × 3 bits, levels 0 to 9. */
const LAST_LEVEL = 9;
/**
 * Entries a bucket holds before it splits into a branch (memory vs copy
 * cost): 16 keeps a million sequential ids at 103 bytes each (8: 118), and
 * with the placement's locality the larger copies die young.
 */
const BUCKET_CAPACITY = 16;
/** The placement scheme, stored after the root branch's 8 slots. */
const SCHEME = 3;
const ROOT_SLOTS = 1 << BITS;
/** Trailing characters the top levels leave out: those that change from one id to the next. */
const TAIL = 3;
/** Levels placed by the id without its tail (the rest by the whole id): 3 bits each. */
const TOP_LEVELS = 3;
const TOP_BITS = TOP_LEVELS * BITS;
const DEEP_BITS = (LAST_LEVEL + 1 - TOP_LEVELS) * BITS;

/**
 * The value stored for `key`, or `undefined`.
 *
 * @example
 * ```ts
 * trieGet(trieSet(null, 'e1', 'abc'), 'e1'); // 'abc'
 * ```
 */
export function trieGet(trie: DigestTrie, key: string): string | undefined {
  return trieGetHashed(currentTrie(trie), key, trieHash(key));
}

/**
 * {@link trieGet} with the key's {@link trieHash} already computed, on a
 * trie of the current scheme (see {@link currentTrie}).
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
      const at = indexInBucket(node, key);
      return at >= 0 ? (node[at + 1] as string) : undefined;
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
  return insert(currentTrie(trie), trieHash(key), key, value, 0);
}

/**
 * {@link trieSet} with the key's {@link trieHash} already computed, on a
 * trie of the current scheme (see {@link currentTrie}).
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
 * One walk for a lookup and an insert: the value already stored for `key`
 * (nothing copied), or a new trie with `key` set to `value`. A trie of the
 * current scheme (see {@link currentTrie}); `trie` itself is left unchanged.
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
  let node: DigestTrieNode | null = trie;
  let level = 0;
  while (node !== null && !isBucket(node)) {
    path[level] = node as Branch;
    node = (node as Branch)[slotOf(hash, level)] ?? null;
    level++;
  }
  let replacement: DigestTrieNode;
  if (node === null) replacement = [key, value];
  else {
    const at = indexInBucket(node, key);
    if (at >= 0) {
      path.fill(null);
      return node[at + 1] as string;
    }
    replacement =
      node.length < BUCKET_CAPACITY * 2 || level >= LAST_LEVEL
        ? appended(node, key, value)
        : insert(split(node, level), hash, key, value, level);
  }
  // Copy the branches on the way back up: the path is the only part that changes.
  while (level > 0) {
    level--;
    const branch = (path[level] as Branch).slice();
    path[level] = null;
    branch[slotOf(hash, level)] = replacement;
    replacement = branch;
  }
  return replacement;
}

/** The branches {@link trieAdd} walked through, kept so a walk allocates nothing; cleared after. */
const path: (Branch | null)[] = new Array<Branch | null>(LAST_LEVEL + 1).fill(null);

/** Where `key` sits in `bucket` (its index), or -1. */
function indexInBucket(bucket: Bucket, key: string): number {
  // Ids in a bucket mostly differ in their last character: compare it before the whole key.
  const last = key.length - 1;
  const lastUnit = key.charCodeAt(last);
  for (let index = 0; index < bucket.length; index += 2) {
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
  if (typeof trie[0] === 'number') {
    // A bucket of the former scheme: (hash, key, value) triples.
    for (let index = 0; index < trie.length; index += 3) {
      yield [trie[index + 1] as string, trie[index + 2] as string];
    }
    return;
  }
  if (isBucket(trie)) {
    for (let index = 0; index < trie.length; index += 2) {
      yield [trie[index] as string, trie[index + 1] as string];
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
  // Current: a bucket of pairs (a former bucket starts with its hash), or a root branch with the scheme.
  const current = isBucket(trie)
    ? true
    : typeof trie[0] !== 'number' &&
      trie.length === ROOT_SLOTS + 1 &&
      trie[ROOT_SLOTS] === (SCHEME as unknown);
  if (current) return trie;
  let rebuilt: DigestTrie = null;
  for (const [key, value] of trieEntries(trie)) {
    rebuilt = insert(rebuilt, trieHash(key), key, value, 0);
  }
  return rebuilt;
}

function insert(
  node: DigestTrieNode | null,
  hash: number,
  key: string,
  value: string,
  level: number,
): DigestTrieNode {
  if (node === null) return [key, value];
  if (isBucket(node)) {
    const at = indexInBucket(node, key);
    if (at >= 0) {
      const copy = node.slice();
      copy[at + 1] = value;
      return copy;
    }
    if (node.length < BUCKET_CAPACITY * 2 || level >= LAST_LEVEL) {
      return appended(node, key, value);
    }
    return insert(split(node, level), hash, key, value, level);
  }
  const branch = (node as Branch).slice();
  const slot = slotOf(hash, level);
  branch[slot] = insert(branch[slot] ?? null, hash, key, value, level + 1);
  return branch;
}

/** `bucket` with one more entry, allocated at its final size. */
function appended(bucket: Bucket, key: string, value: string): Bucket {
  const size = bucket.length;
  const copy = new Array<string>(size + 2);
  for (let index = 0; index < size; index++) copy[index] = bucket[index]!;
  copy[size] = key;
  copy[size + 1] = value;
  return copy;
}

function split(bucket: Bucket, level: number): Branch {
  const branch: Branch = new Array<DigestTrieNode | null>(1 << BITS).fill(null);
  if (level === 0) branch.push(SCHEME as unknown as null);
  for (let index = 0; index < bucket.length; index += 2) {
    const key = bucket[index]!;
    const value = bucket[index + 1]!;
    const slot = slotOf(trieHash(key), level);
    const child = branch[slot];
    branch[slot] =
      child === null || child === undefined ? [key, value] : appended(child as Bucket, key, value);
  }
  return branch;
}

function isBucket(node: DigestTrieNode): node is Bucket {
  return typeof node[0] === 'string';
}

function slotOf(hash: number, level: number): number {
  return (hash >>> (level * BITS)) & ((1 << BITS) - 1);
}

/**
 * The hash that places `key` in the trie: 9 bits of FNV-1a over the key
 * without its last 3 UTF-16 code units for the top three levels, 21 bits of
 * FNV-1a over the whole key for the deeper ones.
 * The deep bits hash every character, so ids that differ anywhere spread out.
 *
 * @example
 * ```ts
 * trieHash('e1'); // 932081148
 * ```
 */
export function trieHash(key: string): number {
  const cut = key.length - TAIL;
  let hash = 0x811c9dc5;
  let top = hash;
  for (let index = 0; index < key.length; index++) {
    if (index === cut) top = hash;
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  }
  const deep = (hash ^ (hash >>> 15)) & ((1 << DEEP_BITS) - 1);
  return (deep << TOP_BITS) | ((top ^ (top >>> 15)) & ((1 << TOP_BITS) - 1));
}
