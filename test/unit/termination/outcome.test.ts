import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/domain/shared/canonicalJson.js';
import { outcomeDigest } from '../../../src/domain/termination/outcome.js';

function expected(canonical: Record<string, unknown>): string {
  return createHash('sha256')
    .update(canonicalJson(canonical, { nonFinite: 'tag' }))
    .digest('base64url');
}

describe('outcomeDigest', () => {
  it.each([
    ['e0', 0, null, null, { objective: 0.5 }],
    ['e"1', 3, 'ckpt', 'abc', { z: 1, a: Number.NaN, m: Number.NEGATIVE_INFINITY }],
    ['e2', undefined, null, 'h', {}],
    ['e3', Number.NaN, 'c', null, { nested: { b: 1, a: [1, true] } }],
  ])(
    'is the sha256 of the canonical outcome for %s',
    (id, episode, checkpointId, checkpointHash, metrics) => {
      const digest = outcomeDigest('agent "A"', id, episode, checkpointId, checkpointHash, metrics);
      expect(digest).toBe(
        expected({
          evaluation_id: id,
          evaluation_episode: episode,
          checkpoint_id: checkpointId,
          checkpoint_hash: checkpointHash,
          metrics,
        }),
      );
    },
  );

  it('does not depend on metric key order', () => {
    const a = outcomeDigest('x', 'e', 0, null, null, { a: 1, b: 2 });
    const b = outcomeDigest('x', 'e', 0, null, null, { b: 2, a: 1 });
    expect(a).toBe(b);
  });
});
