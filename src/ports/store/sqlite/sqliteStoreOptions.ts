import type { Clock } from '../../runtime/clock.js';
import type { RunIdGenerator } from '../../runtime/runId.js';
import type { TableWrite } from '../storeErrors.js';

// Its own module, apart from sqliteOpen.ts, so a published declaration naming it needs no better-sqlite3 types.
/** How a SQLite store (of runs, of judgements) is opened. */
export interface SqliteStoreOptions {
  /** Open for reading only: the file must exist and is never changed (see `openStoreDatabase`). */
  readonly readonly?: boolean;
  /** Timestamps a record does not bring itself (tests inject a fixed one). */
  readonly clock?: Clock;
  /** Makes the id of a run created without one, from a name and the creation time. */
  readonly newRunId?: RunIdGenerator;
  /** How long a write waits for another process's write lock (default 30 s). */
  readonly busyTimeoutMs?: number;
  /**
   * The writes the command needs of the store's tables: a PostgreSQL store
   * refuses a role without them at the open; SQLite has no roles (a writable
   * file is all it takes).
   */
  readonly requiredWrites?: readonly TableWrite[];
}
