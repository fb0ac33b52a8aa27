import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { openSqliteStore, type StoreOptions } from './sqlite/sqliteStore.js';
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
export type StoreLocation =
  | {
      readonly kind: 'sqlite';
      /** An absolute file path, or `':memory:'`. */
      readonly path: string;
    }
  | {
      readonly kind: 'postgres';
      /** The URI as given, password included: what the adapter connects with. */
      readonly uri: string;
      /** The URI without its password, for messages (`no run 'x' in …`). */
      readonly path: string;
    };

/**
 * Parse a `--store` value: `sqlite:PATH` with PATH relative to `cwd` (or
 * `sqlite::memory:`), or `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`;
 * no value means `ARENA_STORE`, and without it `sqlite:.arena/arena.db`.
 *
 * @example
 * ```ts
 * parseStoreUri('sqlite:runs/a.db', '/work'); // { kind: 'sqlite', path: '/work/runs/a.db' }
 * parseStoreUri(undefined, '/work'); // { kind: 'sqlite', path: '/work/.arena/arena.db' }
 * parseStoreUri('postgres://arena:pw@db:5432/runs', '/work');
 * // { kind: 'postgres', uri: 'postgres://arena:pw@db:5432/runs', path: 'postgres://arena@db:5432/runs' }
 * ```
 */
export function parseStoreUri(
  uri: string | undefined,
  cwd: string = process.cwd(),
  environment: NodeJS.ProcessEnv = process.env,
): StoreLocation {
  const given = uri ?? nonEmpty(environment.ARENA_STORE);
  if (given === undefined) return { kind: 'sqlite', path: path.resolve(cwd, defaultStorePath) };
  if (/^postgres(ql)?:\/\//.test(given))
    return { kind: 'postgres', uri: given, path: postgresDisplay(given) };
  const prefix = 'sqlite:';
  const filePath = given.startsWith(prefix) ? given.slice(prefix.length) : '';
  if (filePath.trim() === '') throw new StoreUriError(given);
  if (filePath === ':memory:') return { kind: 'sqlite', path: filePath };
  return { kind: 'sqlite', path: path.resolve(cwd, filePath) };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** The URI without a password, checked as the adapter will check it (a user, a host, a database). */
function postgresDisplay(uri: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new StoreUriError(uri, 'is not a URL');
  }
  if (url.username === '') throw new StoreUriError(uri, 'needs a user');
  if (url.hostname === '') throw new StoreUriError(uri, 'needs a host');
  const database = url.pathname.replace(/^\//, '');
  if (database === '' || database.includes('/')) {
    throw new StoreUriError(uri, 'needs a database name');
  }
  return `postgres://${url.username}@${url.host}/${database}`;
}

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
