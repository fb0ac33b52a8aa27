import { describe, expect, it, vi } from 'vitest';
import { ArenaError } from '../../../src/domain/shared/errors.js';
import {
  assertPeersInstalled,
  importWithPeers,
  MissingPeerDependencyError,
  optionalPeers,
  requirePeer,
  resolvePeer,
} from '../../../src/ports/optionalPeers.js';

const absent = { name: 'arena-no-such-package', range: '^1.2.3' };
const alsoAbsent = { name: '@arena-none/other', range: '^0.4.0' };

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}

describe('optional peer dependencies', () => {
  it('refuses a package that is not installed with one line naming the feature and the npm install', () => {
    const error = thrownBy(() => requirePeer(absent, 'arena-runtime/store (SQLite stores)'));
    expect(error).toBeInstanceOf(MissingPeerDependencyError);
    expect(ArenaError.is(error, 'MISSING_PEER_DEPENDENCY')).toBe(true);
    const missing = error as MissingPeerDependencyError;
    expect(missing.name).toBe('MissingPeerDependencyError');
    expect(missing.message).toBe(
      'arena-runtime/store (SQLite stores): arena-no-such-package is not installed; add it with: npm install arena-no-such-package@^1.2.3',
    );
    expect(missing.message).not.toContain('\n');
    expect(missing.installCommand).toBe('npm install arena-no-such-package@^1.2.3');
    expect(missing.packages).toEqual([absent]);
    expect(missing.feature).toBe('arena-runtime/store (SQLite stores)');
  });

  it('names every missing package of a feature in one install command, and only the missing ones', () => {
    const error = thrownBy(() =>
      assertPeersInstalled([absent, optionalPeers['fast-check'], alsoAbsent], 'a feature'),
    ) as MissingPeerDependencyError;
    expect(error.message).toBe(
      'a feature: arena-no-such-package and @arena-none/other are not installed; add them with: npm install arena-no-such-package@^1.2.3 @arena-none/other@^0.4.0',
    );
    expect(error.packages.map((peer) => peer.name)).toEqual([
      'arena-no-such-package',
      '@arena-none/other',
    ]);
  });

  it('loads an installed peer, CommonJS or ESM-only, and resolves its entry file', () => {
    const fc = requirePeer<{ default: { integer: unknown } }>(optionalPeers['fast-check'], 'fuzz');
    expect(typeof fc.default.integer).toBe('function');
    // ESM-only (no require condition in its exports): installed all the same
    expect(() =>
      assertPeersInstalled([optionalPeers['@statelyai/inspect']], 'inspect'),
    ).not.toThrow();
    expect(resolvePeer(optionalPeers.pg, 'postgres')).toMatch(/node_modules[\\/]pg[\\/]/);
    expect(() => resolvePeer(absent, 'postgres')).toThrow(MissingPeerDependencyError);
  });

  it('imports nothing when a peer is missing, and what the loader returns when all are there', async () => {
    const load = vi.fn(async () => 'loaded');
    await expect(importWithPeers([absent], 'nats', load)).rejects.toThrow(
      'nats: arena-no-such-package is not installed; add it with: npm install arena-no-such-package@^1.2.3',
    );
    expect(load).not.toHaveBeenCalled();
    await expect(importWithPeers([optionalPeers.ws], 'inspect', load)).resolves.toBe('loaded');
    expect(load).toHaveBeenCalledOnce();
  });
});
