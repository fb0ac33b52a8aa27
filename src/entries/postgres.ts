/**
 * `arena-runtime/postgres`: the PostgreSQL run store. Loaded only when asked
 * for (this entry point, or `openStoreAsync` with a `postgres://` location),
 * so a SQLite-only user never loads `pg`.
 *
 * @example
 * ```ts
 * import { openPostgresStore } from 'arena-runtime/postgres';
 * const store = openPostgresStore('postgres://arena@127.0.0.1:5433/arena');
 * store.listRuns().map((run) => run.status); // ['succeeded']
 * ```
 */

export { checkPostgresStore } from '../ports/store/postgres/postgresCheck.js';
export { StoreConnectionError } from '../ports/store/postgres/postgresErrors.js';
export type { PostgresOpenOptions } from '../ports/store/postgres/postgresOpen.js';
export {
  openPostgresStore,
  type PostgresStoreOptions,
} from '../ports/store/postgres/postgresStore.js';
export { type PostgresTarget, parsePostgresUri } from '../ports/store/postgres/postgresUri.js';
