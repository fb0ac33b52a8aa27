import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { openSqliteStore, type StoreOptions } from './sqliteStore.js';
import type { RunStore } from './store.js';
import { StoreNotFoundError, StoreUriError } from './storeErrors.js';

/**
 * Where the store is when `--store` is not given, relative to the current directory.
 *
 * @example
 * ```ts
 * defaultStorePath; // '.arena/arena.db'
 * ```
 */
export const defaultStorePath = '.arena/arena.db';

/** A parsed `--store` value. */
export interface StoreLocation {
  readonly kind: 'sqlite';
  /** An absolute file path, or `':memory:'`. */
  readonly path: string;
}

/**
 * Parse a `--store` value: `sqlite:PATH` with PATH relative to `cwd` (or
 * `sqlite::memory:`); no value means `sqlite:.arena/arena.db`.
 *
 * @example
 * ```ts
 * parseStoreUri('sqlite:runs/a.db', '/work'); // { kind: 'sqlite', path: '/work/runs/a.db' }
 * parseStoreUri(undefined, '/work'); // { kind: 'sqlite', path: '/work/.arena/arena.db' }
 * parseStoreUri('postgres://db', '/work');
 * // StoreUriError: --store must be sqlite:PATH (e.g. sqlite:.arena/arena.db), got 'postgres://db'
 * ```
 */
export function parseStoreUri(uri: string | undefined, cwd: string = process.cwd()): StoreLocation {
  if (uri === undefined) return { kind: 'sqlite', path: path.resolve(cwd, defaultStorePath) };
  const prefix = 'sqlite:';
  const filePath = uri.startsWith(prefix) ? uri.slice(prefix.length) : '';
  if (filePath.trim() === '') throw new StoreUriError(uri);
  if (filePath === ':memory:') return { kind: 'sqlite', path: filePath };
  return { kind: 'sqlite', path: path.resolve(cwd, filePath) };
}

/**
 * Open the store at a location. For writing (the default) its folder and file
 * are created if needed; `readonly: true` (what `arena runs`, `show`, `report`
 * and `check` use) never creates or changes anything and throws
 * `StoreNotFoundError` for a file that does not exist.
 *
 * @example
 * ```ts
 * const store = openStore(parseStoreUri(options.store), { readonly: true });
 * store.listRuns({ limit: 20 });
 * ```
 */
export function openStore(location: StoreLocation, options: StoreOptions = {}): RunStore {
  if (location.path !== ':memory:') {
    if (options.readonly === true) {
      if (!existsSync(location.path)) throw new StoreNotFoundError(location.path);
    } else mkdirSync(path.dirname(location.path), { recursive: true });
  }
  return openSqliteStore(location.path, options);
}
