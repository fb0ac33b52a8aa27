import { describe, expect, it } from 'vitest';
import type { DigestTrie } from '../../../src/domain/termination/digestTrie.js';
import {
  trieAdd,
  trieEntries,
  trieGet,
  trieHash,
  trieSet,
} from '../../../src/domain/termination/digestTrie.js';
import { recordDigest } from '../../../src/domain/termination/recordDigest.js';

describe('digest trie', () => {
  it('stores and finds many keys, splitting buckets, and survives a JSON round trip', () => {
    let trie: DigestTrie = null;
    for (let index = 0; index < 40_000; index++) trie = trieSet(trie, `e-${index}`, `d${index}`);
    expect(trieGet(trie, 'e-0')).toBe('d0');
    expect(trieGet(trie, 'e-39999')).toBe('d39999');
    expect(trieGet(trie, 'e-40000')).toBeUndefined();
    expect([...trieEntries(trie)]).toHaveLength(40_000);
    const restored = JSON.parse(JSON.stringify(trie)) as DigestTrie;
    expect(trieGet(restored, 'e-1234')).toBe('d1234');
  });

  it('leaves the earlier version unchanged when a key is added or replaced', () => {
    const before = trieSet(trieSet(null, 'a', '1'), 'b', '2');
    const copy = structuredClone(before);
    const added = trieSet(before, 'c', '3');
    const replaced = trieSet(before, 'a', '9');
    expect(before).toEqual(copy);
    expect(trieGet(added, 'c')).toBe('3');
    expect(trieGet(before, 'c')).toBeUndefined();
    expect(trieGet(replaced, 'a')).toBe('9');
    expect(trieGet(before, 'a')).toBe('1');
  });

  it('adds a new key in one walk and returns the stored value of a known key without copying', () => {
    let trie: DigestTrie = null;
    for (let index = 0; index < 5_000; index++) {
      const added = trieAdd(trie, `e-${index}`, trieHash(`e-${index}`), `d${index}`);
      expect(typeof added).not.toBe('string');
      trie = added as DigestTrie;
    }
    const copy = structuredClone(trie);
    expect(trieAdd(trie, 'e-1234', trieHash('e-1234'), 'other')).toBe('d1234');
    const grown = trieAdd(trie, 'e-new', trieHash('e-new'), 'dn') as DigestTrie;
    expect(trieGet(grown, 'e-new')).toBe('dn');
    expect(trieGet(grown, 'e-4999')).toBe('d4999');
    expect(trie).toEqual(copy);
    expect(trieGet(trie, 'e-new')).toBeUndefined();
  });

  it('rebuilds a trie placed by the five-level scheme 2 and still finds every key', () => {
    const trie = formerTrie(
      2,
      Array.from({ length: 2_000 }, (_, index) => `e-${index}`),
    );
    expect((trie as unknown[])[8]).toBe(2);
    // Placed by the current hash, 'e-7' would sit elsewhere: the lookup must rebuild, not walk.
    for (let index = 0; index < 2_000; index += 37) {
      expect(trieGet(trie, `e-${index}`)).toBe(`d${index}`);
    }
    expect(trieGet(trieSet(trie, 'e-x', 'dx'), 'e-1999')).toBe('d1999');
    expect([...trieEntries(trie)]).toHaveLength(2_000);
  });

  it('rebuilds a scheme-3 trie (digests as text), keeping record digests and any other text', () => {
    const keys = Array.from({ length: 3_000 }, (_, index) => `e-${index}`);
    const digest = (index: number) =>
      recordDigest(`e-${index}`, index, null, null, { objective: index });
    const value = (index: number) => (index % 7 === 0 ? `legacy-${index}` : digest(index));
    const trie = formerTrie(3, keys, (key) => value(Number(key.slice(2))));
    expect((trie as unknown[])[8]).toBe(3);
    for (let index = 0; index < 3_000; index += 41) {
      expect(trieGet(trie, `e-${index}`)).toBe(value(index));
    }
    expect(new Map(trieEntries(trie))).toEqual(
      new Map(keys.map((key, index) => [key, value(index)])),
    );
    const small = formerTrie(3, keys.slice(0, 3), (key) => value(Number(key.slice(2))));
    expect(trieGet(small, 'e-1')).toBe(value(1));
    expect(trieGet(trieSet(small, 'e-9', 'x'), 'e-0')).toBe(value(0));
  });
});

/**
 * How schemes 2 and 3 placed ids: `topBits` of FNV-1a over the key without its last 3
 * characters (15 in scheme 2, 9 in scheme 3), the rest of 30 bits over the whole key.
 */
function formerHash(key: string, topBits: number): number {
  const cut = key.length - 3;
  let hash = 0x811c9dc5;
  let top = hash;
  for (let index = 0; index < key.length; index++) {
    if (index === cut) top = hash;
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  }
  const deep = (hash ^ (hash >>> 15)) & ((1 << (30 - topBits)) - 1);
  return (deep << topBits) | ((top ^ (top >>> 15)) & ((1 << topBits) - 1));
}

/**
 * A trie of `keys` as scheme 2 or 3 built it: buckets of (key, text) pairs up to 16 (a bucket
 * root until then), 8-slot branches, the scheme after the root's slots.
 */
function formerTrie(
  scheme: 2 | 3,
  keys: string[],
  textOf: (key: string) => string = (key) => `d${key.slice(2)}`,
): DigestTrie {
  type Node = string[] | (Node | null)[];
  const topBits = scheme === 2 ? 15 : 9;
  const insert = (node: Node | null, key: string, level: number): Node => {
    if (node === null) return [key, textOf(key)];
    if (typeof node[0] === 'string') {
      if (node.length < 32 || level >= 9) return [...(node as string[]), key, textOf(key)];
      let branch: Node = new Array<Node | null>(8).fill(null);
      if (level === 0) (branch as unknown[]).push(scheme);
      for (let index = 0; index < node.length; index += 2) {
        branch = insert(branch, node[index] as string, level);
      }
      return insert(branch, key, level);
    }
    const branch = (node as (Node | null)[]).slice();
    const slot = (formerHash(key, topBits) >>> (level * 3)) & 7;
    branch[slot] = insert(branch[slot] ?? null, key, level + 1);
    return branch;
  };
  let trie: Node | null = null;
  for (const key of keys) trie = insert(trie, key, 0);
  return trie as DigestTrie;
}
