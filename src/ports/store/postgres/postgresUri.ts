import { StoreUriError, StoreUriParameterError } from '../storeErrors.js';
import { tlsPlan } from './postgresTls.js';
import { readTlsSettings } from './postgresTlsFiles.js';
import type { ConnectionConfig } from './syncConnection.js';

/** The URI parameters arena takes, with libpq's meaning. */
const knownParameters = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'password'];

/** A parsed `postgres://` store URI: how to connect, and how to name it in messages (no password). */
export interface PostgresTarget {
  readonly config: ConnectionConfig;
  /** `postgres://user@host:port/database`: the URI without its password. */
  readonly display: string;
}

/**
 * Parse `postgres://user[:password]@host[:port]/database[?sslmode=…]` (or
 * `postgresql://`). The port defaults to 5432; a password absent from the URI
 * (`user:password@` or `?password=`) is taken from `PGPASSWORD`, and the TLS
 * parameters (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`) mean what they
 * mean to libpq and `psql` (see `tlsPlan`).
 *
 * @example
 * ```ts
 * parsePostgresUri('postgres://arena:s3cret@127.0.0.1:5433/runs').display;
 * // 'postgres://arena@127.0.0.1:5433/runs'
 * parsePostgresUri('postgres://127.0.0.1/runs');
 * // StoreUriError: --store postgres://… needs a user, e.g. postgres://arena@127.0.0.1:5432/arena, got …
 * ```
 */
export function parsePostgresUri(
  uri: string,
  connectTimeoutMs = 10_000,
  environment: NodeJS.ProcessEnv = process.env,
): PostgresTarget {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new StoreUriError(uri, 'is not a URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new StoreUriError(uri, 'must start with postgres://');
  }
  const user = decodeURIComponent(url.username);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (user === '') throw new StoreUriError(uri, 'needs a user');
  if (host === '') throw new StoreUriError(uri, 'needs a host');
  if (database === '' || database.includes('/'))
    throw new StoreUriError(uri, 'needs a database name');
  const port = url.port === '' ? 5432 : Number(url.port);
  const display = `postgres://${encodeURIComponent(user)}@${url.host}/${encodeURIComponent(database)}`;
  for (const name of url.searchParams.keys()) {
    if (!knownParameters.includes(name)) {
      throw new StoreUriParameterError(
        display,
        `unknown parameter '${name}' (arena takes ${knownParameters.join(', ')})`,
      );
    }
  }
  const password =
    url.password !== ''
      ? decodeURIComponent(url.password)
      : (url.searchParams.get('password') ?? environment.PGPASSWORD);
  return {
    config: {
      host,
      port,
      user,
      database,
      connectTimeoutMs,
      ...(password !== undefined ? { password } : {}),
      tls: tlsPlan(readTlsSettings(url.searchParams, environment, display), display),
    },
    display,
  };
}
