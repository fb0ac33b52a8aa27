import { deepCheck, sqliteDigestSql } from '../core/sealedRecords.js';
import type { StoreCheck, StoreCheckOptions } from '../core/storeCheck.js';
import { StoreOpenError } from '../storeErrors.js';
import { openStoreDatabase, storeFileError } from './sqliteOpen.js';
import { storeMigrations, storeVersion } from './sqliteSchema.js';

// named here too, where `arena check` and the public API have always found it
export type { StoreCheck, StoreCheckOptions } from '../core/storeCheck.js';

/** The SQLite schema whose finished runs keep a digest of their records (sqliteSealing.ts). */
const sealedSince = 10;

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
export function checkSqliteStore(path: string, options: StoreCheckOptions = {}): StoreCheck {
  let db: ReturnType<typeof openStoreDatabase>;
  try {
    db = openStoreDatabase(path, { readonly: true });
  } catch (error) {
    // damage that stops even the opening is the finding itself
    const cause =
      error instanceof StoreOpenError ? (error.cause as { code?: string } | undefined) : undefined;
    if (cause?.code?.startsWith('SQLITE_CORRUPT') !== true) throw error;
    const message = (cause as unknown as Error).message;
    return {
      path,
      schemaVersion: 0,
      upToDate: false,
      runs: 0,
      problems: [`it cannot be opened: ${message}`],
    };
  }
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
    // digests are kept since schema 10; a damaged file is not read further
    const deep =
      options.deep === true && problems.length === 0 && version >= sealedSince
        ? deepCheck((sql) => db.prepare(sql).all(), sqliteDigestSql, true)
        : undefined;
    return {
      path,
      schemaVersion: version,
      upToDate: version >= storeMigrations.length,
      runs,
      problems,
      ...(deep === undefined ? {} : { deep }),
    };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')) {
      // so damaged that the check itself stops: that is the finding
      const version = storeVersion(db);
      const message = `the check stopped: ${(error as Error).message}`;
      return { path, schemaVersion: version, upToDate: false, runs: 0, problems: [message] };
    }
    throw storeFileError(path, error);
  } finally {
    db.close();
  }
}
