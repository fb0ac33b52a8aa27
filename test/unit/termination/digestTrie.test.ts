import { describe, expect, it } from 'vitest';
import type { DigestTrie } from '../../../src/domain/termination/digestTrie.js';
import { trieEntries, trieGet, trieSet } from '../../../src/domain/termination/digestTrie.js';

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
});
