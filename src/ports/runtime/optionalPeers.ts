import { createRequire } from 'node:module';
import { ArenaError } from '../../domain/shared/errors.js';

/** An npm package arena loads only for the feature that uses it, and the versions it works with. */
export interface OptionalPeer {
  /** The package name, e.g. `better-sqlite3`. */
  readonly name: string;
  /** The range package.json's `peerDependencies` states, e.g. `^12.11.1`. */
  readonly range: string;
}

/**
 * Every driver arena loads on demand, with the range its `peerDependencies`
 * state (a unit test keeps the two equal). The library needs none of them;
 * the `arena` command's package depends on all of them.
 *
 * @example
 * ```ts
 * optionalPeers['better-sqlite3'].range; // '^12.11.1'
 * ```
 */
export const optionalPeers = {
  'better-sqlite3': { name: 'better-sqlite3', range: '^12.11.1' },
  pg: { name: 'pg', range: '^8.23.1' },
  '@nats-io/jetstream': { name: '@nats-io/jetstream', range: '^3.4.0' },
  '@nats-io/transport-node': { name: '@nats-io/transport-node', range: '^3.4.0' },
  openai: { name: 'openai', range: '^6.49.0' },
  mermaid: { name: 'mermaid', range: '^11.17.2' },
  'chart.js': { name: 'chart.js', range: '^4.6.1' },
  '@dagrejs/dagre': { name: '@dagrejs/dagre', range: '^3.1.3' },
  ws: { name: 'ws', range: '^8.23.0' },
  '@statelyai/inspect': { name: '@statelyai/inspect', range: '^0.7.2' },
  'fast-check': { name: 'fast-check', range: '^4.11.0' },
  'pino-pretty': { name: 'pino-pretty', range: '^13.2.0' },
} as const satisfies Record<string, OptionalPeer>;

/**
 * A feature was used whose optional peer dependency is not installed. The
 * message is one line naming the feature and the `npm install` that adds what
 * is missing; `packages` and `installCommand` hold the same as data.
 *
 * @example
 * ```ts
 * openSqliteStore('runs.db'); // in an app without better-sqlite3:
 * // MissingPeerDependencyError: arena-runtime/store (SQLite stores): better-sqlite3 is not installed; add it with: npm install better-sqlite3@^12.11.1
 * ```
 */
export class MissingPeerDependencyError extends ArenaError {
  /** What was used, e.g. `arena-runtime/store (SQLite stores)`. */
  readonly feature: string;
  /** The packages that are missing, with their ranges. */
  readonly packages: readonly OptionalPeer[];
  /** The command that installs them, e.g. `npm install better-sqlite3@^12.11.1`. */
  readonly installCommand: string;

  constructor(feature: string, packages: readonly OptionalPeer[]) {
    const names = packages.map((peer) => peer.name);
    const installCommand = `npm install ${packages.map((peer) => `${peer.name}@${peer.range}`).join(' ')}`;
    const listed = names.length === 1 ? `${names[0]} is` : `${names.join(' and ')} are`;
    const pronoun = names.length === 1 ? 'it' : 'them';
    super(
      'MISSING_PEER_DEPENDENCY',
      `${feature}: ${listed} not installed; add ${pronoun} with: ${installCommand}`,
    );
    this.feature = feature;
    this.packages = packages;
    this.installCommand = installCommand;
  }
}

// Resolved from arena's own files: where an app's node_modules holds its peers.
const requireFromHere = createRequire(import.meta.url);

/** Set by the `arena` CLI's build (scripts/bundle-cli.mjs) to the peers its bundle holds, separated by spaces; undefined elsewhere. */
declare const ARENA_BUNDLED_PEERS: string | undefined;

/**
 * Peers whose code is inside the running bundle: an import of them needs
 * nothing from node_modules, so it is not looked for there (resolving a
 * package costs a judge-only worker ~5 ms of start-up).
 */
const bundledPeers: ReadonlySet<string> = new Set(
  typeof ARENA_BUNDLED_PEERS === 'undefined' ? [] : ARENA_BUNDLED_PEERS.split(' '),
);

/** Whether Node can find the package from here (an ESM-only package counts: it is there). */
function isInstalled(name: string): boolean {
  try {
    requireFromHere.resolve(name);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND';
  }
}

/**
 * Throw `MissingPeerDependencyError` for `feature` naming every one of
 * `peers` that is not installed; return when all are.
 *
 * @example
 * ```ts
 * assertPeersInstalled([optionalPeers.ws, optionalPeers['@statelyai/inspect']], 'arena-runtime/inspect (the inspector relay)');
 * ```
 */
export function assertPeersInstalled(peers: readonly OptionalPeer[], feature: string): void {
  const missing = peers.filter((peer) => !isInstalled(peer.name));
  if (missing.length > 0) throw new MissingPeerDependencyError(feature, missing);
}

/**
 * Load an optional peer synchronously (`require`, so CommonJS, or ESM
 * without top-level await on Node >= 20.19), or throw
 * `MissingPeerDependencyError` for `feature` when it is not installed.
 *
 * @example
 * ```ts
 * const Database = requirePeer<typeof import('better-sqlite3')>(optionalPeers['better-sqlite3'], 'arena-runtime/store (SQLite stores)');
 * ```
 */
export function requirePeer<T>(peer: OptionalPeer, feature: string): T {
  assertPeersInstalled([peer], feature);
  return requireFromHere(peer.name) as T;
}

/**
 * Where an optional peer's entry file is (for a worker thread that loads it),
 * or `MissingPeerDependencyError` for `feature` when it is not installed.
 *
 * @example
 * ```ts
 * resolvePeer(optionalPeers.pg, 'arena-runtime/postgres (PostgreSQL stores)'); // '/app/node_modules/pg/lib/index.js'
 * ```
 */
export function resolvePeer(peer: OptionalPeer, feature: string): string {
  assertPeersInstalled([peer], feature);
  return requireFromHere.resolve(peer.name);
}

/**
 * Run `load` (a dynamic `import()` of the module that uses `peers`) once all
 * of them are installed, else throw `MissingPeerDependencyError` for `feature`
 * before anything is loaded. `load` is written at the call site, with a literal
 * specifier, so a bundler still sees what it imports; peers the running bundle
 * holds (the `arena` CLI's pg and NATS client) are not looked for.
 *
 * @example
 * ```ts
 * const { openJetStreamRunQueue } = await importWithPeers(
 *   [optionalPeers['@nats-io/jetstream'], optionalPeers['@nats-io/transport-node']],
 *   'arena-runtime/nats (NATS queues)',
 *   () => import('../nats/jetStreamRunQueue.js'),
 * );
 * ```
 */
export async function importWithPeers<T>(
  peers: readonly OptionalPeer[],
  feature: string,
  load: () => Promise<T>,
): Promise<T> {
  assertPeersInstalled(
    peers.filter((peer) => !bundledPeers.has(peer.name)),
    feature,
  );
  return load();
}
