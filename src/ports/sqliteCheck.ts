import { openStoreDatabase, storeFileError } from './sqliteOpen.js';
import { storeMigrations, storeVersion } from './sqliteSchema.js';

/** What `arena check` found in a store file. */
export interface StoreCheck {
  readonly path: string;
  /** The file's schema version. */
  readonly schemaVersion: number;
  /** Whether the schema is the newest this arena knows (an older one is upgraded by the next `arena run`). */
  readonly upToDate: boolean;
  readonly runs: number;
  /** `integrity_check` and `foreign_key_check` findings; empty when the file is sound. */
  readonly problems: readonly string[];
}

/**
 * Check a store file read-only: SQLite's full `integrity_check` (every page,
 * index and constraint, which the normal path never reads) and
 * `foreign_key_check`. A file that cannot be opened throws `StoreOpenError`
 * or `StoreNotFoundError`.
 *
 * @example
 * ```ts
 * checkSqliteStore('.arena/arena.db');
 * // { path: '.arena/arena.db', schemaVersion: 2, upToDate: true, runs: 3, problems: [] }
 * ```
 */
export function checkSqliteStore(path: string): StoreCheck {
  const db = openStoreDatabase(path, { readonly: true });
  try {
    const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
    const problems = integrity
      .map((row) => row.integrity_check)
      .filter((message) => message !== 'ok');
    const orphans = db.pragma('foreign_key_check') as {
      table: string;
      rowid: number;
      parent: string;
    }[];
    for (const orphan of orphans) {
      problems.push(`${orphan.table} row ${orphan.rowid} refers to a missing ${orphan.parent} row`);
    }
    const version = storeVersion(db);
    const runs =
      problems.length === 0
        ? (db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n
        : 0;
    return {
      path,
      schemaVersion: version,
      upToDate: version >= storeMigrations.length,
      runs,
      problems,
    };
  } catch (error) {
    throw storeFileError(path, error);
  } finally {
    db.close();
  }
}
