/**
 * A persistent (immutable, structurally shared) string-to-string map made of
 * plain JSON arrays, so that a termination state stays plain data and adding
 * one evaluation digest copies a few small arrays instead of the whole map.
 *
 * A node is either a bucket (`[key, value, key, value, ...]`, never empty, so
 * its first item is a string) or a branch (32 slots, each a node or `null`)
 * indexed by 5 bits of the key's FNV-1a hash per level.
 */
export type DigestTrie = DigestTrieNode | null;
/** A bucket of alternating keys and values, or a branch of 32 slots. */
export type DigestTrieNode = string[] | (DigestTrieNode | null)[];

const BITS_PER_LEVEL = 5;
const BRANCH_WIDTH = 1 << BITS_PER_LEVEL;
const LAST_LEVEL = 6;
/** Entries a bucket holds before it splits into a branch (memory vs copy cost). */
const BUCKET_CAPACITY = 48;

/**
 * The value stored for `key`, or `undefined`.
 *
 * @example
 * ```ts
 * trieGet(trieSet(null, 'e1', 'abc'), 'e1'); // 'abc'
 * ```
 */
export function trieGet(trie: DigestTrie, key: string): string | undefined {
  const hash = hashKey(key);
  let node: DigestTrieNode | null = trie;
  let level = 0;
  while (node !== null) {
    if (isBucket(node)) {
      for (let index = 0; index < node.length; index += 2) {
        if (node[index] === key) return node[index + 1];
      }
      return undefined;
    }
    node = (node as (DigestTrieNode | null)[])[slotOf(hash, level)] ?? null;
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
  return insert(trie, key, value, hashKey(key), 0);
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
    for (let index = 0; index < trie.length; index += 2) {
      yield [trie[index] as string, trie[index + 1] as string];
    }
    return;
  }
  for (const child of trie as (DigestTrieNode | null)[]) yield* trieEntries(child);
}

function insert(
  node: DigestTrieNode | null,
  key: string,
  value: string,
  hash: number,
  level: number,
): DigestTrieNode {
  if (node === null) return [key, value];
  if (isBucket(node)) {
    for (let index = 0; index < node.length; index += 2) {
      if (node[index] === key) {
        const copy = node.slice();
        copy[index + 1] = value;
        return copy;
      }
    }
    if (node.length < BUCKET_CAPACITY * 2 || level >= LAST_LEVEL) {
      const copy = node.slice();
      copy.push(key, value);
      return copy;
    }
    return insert(split(node, level), key, value, hash, level);
  }
  const branch = (node as (DigestTrieNode | null)[]).slice();
  const slot = slotOf(hash, level);
  branch[slot] = insert(branch[slot] ?? null, key, value, hash, level + 1);
  return branch;
}

function split(bucket: string[], level: number): (DigestTrieNode | null)[] {
  let branch: (DigestTrieNode | null)[] = new Array<DigestTrieNode | null>(BRANCH_WIDTH).fill(null);
  for (let index = 0; index < bucket.length; index += 2) {
    const key = bucket[index] as string;
    branch = insert(
      branch,
      key,
      bucket[index + 1] as string,
      hashKey(key),
      level,
    ) as (DigestTrieNode | null)[];
  }
  return branch;
}

function isBucket(node: DigestTrieNode): node is string[] {
  return typeof node[0] === 'string';
}

function slotOf(hash: number, level: number): number {
  return (hash >>> (level * BITS_PER_LEVEL)) & (BRANCH_WIDTH - 1);
}

/** 32-bit FNV-1a over UTF-16 code units. */
function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}
