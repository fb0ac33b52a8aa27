import path from 'node:path';
import { StoreUriError } from './storeErrors.js';

/*
 * A `--store` value and where it points, apart from the stores: a command
 * that opens only a judge store (a judge-only worker) parses its `--store`
 * without loading the run stores' SQLite adapter.
 */

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
