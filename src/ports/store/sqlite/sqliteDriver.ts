import type Database from 'better-sqlite3';
import { optionalPeers, requirePeer } from '../../runtime/optionalPeers.js';

/**
 * better-sqlite3, loaded at the first SQLite store opened: an app that never
 * opens one needs no native addon.
 *
 * @internal the SQLite adapters' own helper; its types are better-sqlite3's.
 * @example
 * ```ts
 * const db = new (sqliteDriver())(':memory:');
 * ```
 */
export function sqliteDriver(): typeof Database {
  driver ??= requirePeer<typeof Database>(
    optionalPeers['better-sqlite3'],
    'arena-runtime/store (SQLite stores)',
  );
  return driver;
}

let driver: typeof Database | undefined;
