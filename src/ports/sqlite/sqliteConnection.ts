import Database from 'better-sqlite3';
import type { SqlConnection } from '../storeCore/sqlConnection.js';

/** A key that refused a write: SQLite fails the statement (not the transaction), PostgreSQL's `ON CONFLICT` writes nothing. */
const refusingCodes = new Set(['SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_FOREIGNKEY']);

/** `$1`… are named parameters to better-sqlite3, bound by their number; SQLite has no booleans. */
function bound(params: readonly unknown[]): Record<number, unknown> {
  const named: Record<number, unknown> = {};
  for (let index = 0; index < params.length; index++) {
    const value = params[index];
    named[index + 1] = typeof value === 'boolean' ? Number(value) : value;
  }
  return named;
}

function refused(error: unknown): boolean {
  return error instanceof Database.SqliteError && refusingCodes.has(error.code);
}

/**
 * A store file's database as the store core runs SQL on it. Statements are
 * prepared on first use and kept, so a read-only file of an older schema
 * never prepares one it cannot run; a transaction is `BEGIN IMMEDIATE`, so a
 * concurrent writer makes it wait for the write lock, never fail.
 *
 * @internal the SQLite adapters' own helper.
 * @example
 * ```ts
 * const connection = sqliteConnection(openStoreDatabase('.arena/arena.db'));
 * connection.get<{ n: number }>('SELECT COUNT(*) AS n FROM runs WHERE uid = $1', ['grid']); // { n: 3 }
 * ```
 */
export function sqliteConnection(db: Database.Database): SqlConnection {
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string): Database.Statement => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    all: <Row>(sql: string, params: readonly unknown[] = []) =>
      prepared(sql).all(bound(params)) as Row[],
    get<Row>(sql: string, params: readonly unknown[] = []) {
      try {
        return prepared(sql).get(bound(params)) as Row | undefined;
      } catch (error) {
        if (refused(error)) return undefined;
        throw error;
      }
    },
    run(sql, params = []) {
      try {
        return prepared(sql).run(bound(params)).changes;
      } catch (error) {
        if (refused(error)) return 0;
        throw error;
      }
    },
    transaction: (work) => db.transaction(work).immediate(),
    close() {
      if (db.open) db.close();
    },
  };
}
