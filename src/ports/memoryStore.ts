import { openSqliteStore, type StoreOptions } from './sqlite/sqliteStore.js';
import type { RunStore } from './store.js';

/**
 * A run store that lives in memory and is gone on `close()`, for tests of the
 * runner. It is the SQLite store on an in-memory database, so it behaves
 * exactly as the file store does: same ordering, same errors, same canonical
 * JSON round trip, same transactions.
 *
 * @example
 * ```ts
 * const store = createMemoryStore({ clock: fixedClock(new Date('2026-01-01T00:00:00Z')) });
 * store.createRun({ uid: 'grid', seed: 1, runFile: '', runFilePath: 'run.yaml' }).startedAt;
 * // '2026-01-01T00:00:00.000Z'
 * ```
 */
export function createMemoryStore(options: StoreOptions = {}): RunStore {
  return openSqliteStore(':memory:', options);
}
