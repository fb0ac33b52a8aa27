import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { openSqliteStore, type StoreOptions } from './sqlite/sqliteStore.js';
import type { RunStore } from './store.js';
import { StoreNotFoundError, StoreUriError } from './storeErrors.js';
import type { StoreLocation } from './storeLocation.js';

export { defaultStorePath, parseStoreUri, type StoreLocation } from './storeLocation.js';

/**
 * Open the SQLite store at a location. For writing (the default) its folder
 * and file are created if needed; `readonly: true` (what `arena runs`, `show`,
 * `report` and `check` use) never creates or changes anything and throws
 * `StoreNotFoundError` for a file that does not exist. A `postgres://`
 * location needs `openStoreAsync`, which loads that adapter.
 *
 * @example
 * ```ts
 * const store = openStore(parseStoreUri('sqlite:.arena/arena.db'), { readonly: true });
 * store.listRuns({ limit: 20 });
 * ```
 */
export function openStore(location: StoreLocation, options: StoreOptions = {}): RunStore {
  if (location.kind === 'postgres') {
    throw new StoreUriError(location.path, 'is opened with openStoreAsync');
  }
  if (location.path !== ':memory:') {
    if (options.readonly === true) {
      if (!existsSync(location.path)) throw new StoreNotFoundError(location.path);
    } else mkdirSync(path.dirname(location.path), { recursive: true });
  }
  return openSqliteStore(location.path, options);
}

/**
 * Open the store at any location: SQLite as `openStore` does, PostgreSQL by
 * loading its adapter (and `pg`) only now, so a SQLite run loads nothing of it.
 *
 * @example
 * ```ts
 * const store = await openStoreAsync(parseStoreUri(options.store), { readonly: true });
 * store.listRuns({ limit: 20 });
 * ```
 */
export async function openStoreAsync(
  location: StoreLocation,
  options: StoreOptions = {},
): Promise<RunStore> {
  if (location.kind === 'sqlite') return openStore(location, options);
  const { openPostgresStore } = await import('./postgres/postgresStore.js');
  return openPostgresStore(location.uri, options);
}
