import { describe, expect, it } from 'vitest';
import type { DigestTrie } from '../../../src/domain/termination/digestTrie.js';
import { currentTrie, trieEntries, trieGet } from '../../../src/domain/termination/digestTrie.js';
import {
  applyCheckpoint,
  ConflictingDuplicateError,
  createTerminationState,
  type TerminationState,
} from '../../../src/domain/termination/index.js';
import { outcomeDigest } from '../../../src/domain/termination/outcome.js';
import { sacOutcome, sacSuccessConfig } from '../../support/terminationRules.js';

/** How arena placed ids before (whole-key FNV-1a, 30 bits, no scheme mark), to build old snapshots. */
function legacyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  }
  return (hash ^ (hash >>> 30)) & 0x3fffffff;
}

function legacySlot(hash: number, level: number): number {
  const shift = level < 3 ? level * 5 : 15 + (level - 3) * 3;
  return (hash >>> shift) & ((1 << (level < 3 ? 5 : 3)) - 1);
}

type Node = (number | string)[] | (Node | null)[];

function legacyInsert(
  node: Node | null,
  hash: number,
  key: string,
  value: string,
  level: number,
): Node {
  if (node === null) return [hash, key, value];
  if (typeof node[0] === 'number') {
    if (node.length < 24 || level >= 7) return [...(node as (number | string)[]), hash, key, value];
    const branch: (Node | null)[] = new Array(1 << (level < 3 ? 5 : 3)).fill(null);
    for (let index = 0; index < node.length; index += 3) {
      const entryHash = node[index] as number;
      const slot = legacySlot(entryHash, level);
      branch[slot] = legacyInsert(
        branch[slot] ?? null,
        entryHash,
        node[index + 1] as string,
        node[index + 2] as string,
        level + 1,
      );
    }
    return legacyInsert(branch, hash, key, value, level);
  }
  const branch = (node as (Node | null)[]).slice();
  const slot = legacySlot(hash, level);
  branch[slot] = legacyInsert(branch[slot] ?? null, hash, key, value, level + 1);
  return branch;
}

function legacyTrie(entries: [string, string][]): DigestTrie {
  let trie: Node | null = null;
  for (const [key, value] of entries) trie = legacyInsert(trie, legacyHash(key), key, value, 0);
  return trie as DigestTrie;
}

describe('a trie placed by the former hash (an older snapshot)', () => {
  const entries = Array.from({ length: 500 }, (_, index): [string, string] => [
    `e-${index}`,
    `d${index}`,
  ]);

  it('is rebuilt once with every entry, and found by trieGet', () => {
    const old = legacyTrie(entries);
    expect(old).toHaveLength(32);
    const rebuilt = currentTrie(old);
    expect(rebuilt).not.toBe(old);
    expect(currentTrie(rebuilt)).toBe(rebuilt);
    expect(new Map(trieEntries(rebuilt))).toEqual(new Map(entries));
    expect(trieGet(old, 'e-321')).toBe('d321');
    expect(trieGet(legacyTrie(entries.slice(0, 3)), 'e-2')).toBe('d2');
  });

  it('still recognises a re-send of an outcome recorded before the snapshot', () => {
    const config = sacSuccessConfig();
    const sent = sacOutcome;
    const recorded = Array.from({ length: 40 }, (_, episode): [string, string] => [
      `SAC-${episode}`,
      outcomeDigest('', `SAC-${episode}`, episode, null, null, { objective: 0.5 }),
    ]);
    const fresh = createTerminationState(config);
    const old: TerminationState = {
      ...fresh,
      agents: {
        SAC: {
          ...fresh.agents.SAC!,
          lastEvaluation: 39,
          seen: legacyTrie(recorded),
          seenCount: 40,
          validEvaluations: 40,
        },
      },
    };
    expect(applyCheckpoint(old, [sent(7, 0.5)]).decision.report.agents[0]?.status).toBe(
      'duplicate',
    );
    expect(() => applyCheckpoint(old, [sent(7, 0.6)])).toThrow(ConflictingDuplicateError);
    const next = applyCheckpoint(old, [sent(40, 0.9)]).state;
    expect(currentTrie(next.agents.SAC!.seen)).toBe(next.agents.SAC!.seen);
    expect(applyCheckpoint(next, [sent(12, 0.5)]).decision.report.agents[0]?.status).toBe(
      'duplicate',
    );
  });
});
