/**
 * The PostgreSQL run store: `arena-runtime/postgres`. Loaded only when asked
 * for (`openStoreAsync` with a `postgres://` location, or this entry point),
 * so a SQLite-only user never loads `pg`.
 */

export { checkPostgresStore } from './postgresCheck.js';
export { StoreConnectionError } from './postgresErrors.js';
export type { PostgresOpenOptions } from './postgresOpen.js';
export { openPostgresStore, type PostgresStoreOptions } from './postgresStore.js';
export { type PostgresTarget, parsePostgresUri } from './postgresUri.js';
