import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ArenaError } from '../../../src/domain/shared/errors.js';
import {
  assertPeersInstalled,
  importWithPeers,
  MissingPeerDependencyError,
  optionalPeers,
  requirePeer,
  resolvePeer,
} from '../../../src/ports/runtime/optionalPeers.js';
import { repoRoot } from '../../support/cli.js';

interface Manifest {
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const manifestOf = (file: string): Manifest =>
  JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8')) as Manifest;
const library = manifestOf('package.json');
const cli = manifestOf('cli/package.json');

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

  it("states each driver's range as package.json's optional peerDependencies do", () => {
    const { xstate, ...drivers } = library.peerDependencies ?? {};
    expect(xstate).toMatch(/^\^5\.\d+\.\d+$/);
    expect(
      Object.fromEntries(Object.values(optionalPeers).map((peer) => [peer.name, peer.range])),
    ).toEqual(drivers);
    for (const name of Object.keys(drivers)) {
      expect(library.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
    }
    expect(library.peerDependenciesMeta?.xstate).toBeUndefined();
  });

  it('gives the arena command every driver its commands load, at the version the library is tested with', () => {
    // No command inlines Mermaid's browser bundle (arena diagram and arena report draw their own
    // SVG), and it would be more than half of the command's install.
    const unusedByTheCli = ['mermaid'];
    for (const peer of Object.values(optionalPeers)) {
      const tested = library.devDependencies?.[peer.name];
      expect(tested, peer.name).toBeDefined();
      const wanted = unusedByTheCli.includes(peer.name) ? undefined : tested;
      expect(cli.dependencies?.[peer.name], peer.name).toBe(wanted);
      // the tested version is the lowest the range allows
      expect(peer.range, peer.name).toBe(`^${tested}`);
    }
    expect(cli.version).toBe(library.version);
    expect(cli.dependencies?.['arena-runtime']).toBe(library.version);
    expect(cli.dependencies?.xstate).toBe(library.devDependencies?.xstate);
    expect(cli.dependencies?.commander).toBe(library.devDependencies?.commander);
    for (const [name, version] of Object.entries(library.dependencies ?? {})) {
      expect(cli.dependencies?.[name] ?? version, name).toBe(version);
    }
  });
});
