import type Database from 'better-sqlite3';
import type { SqlConnection } from '../core/sqlConnection.js';

/** A key that refused a write: SQLite fails the statement (not the transaction), PostgreSQL's `ON CONFLICT` writes nothing. */
const refusingCodes = new Set(['SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_FOREIGNKEY']);

/** A statement with `$n` parameters rewritten as SQLite's positional `?`: `order[i]` is the index of the `i`-th one. */
interface Prepared {
  readonly statement: Database.Statement;
  readonly order: readonly number[];
}

/** The `?` parameters' values in order; SQLite has no booleans. */
function bound(prepared: Prepared, params: readonly unknown[]): unknown[] {
  const { order } = prepared;
  const values = new Array<unknown>(order.length);
  for (let index = 0; index < order.length; index++) {
    const value = params[order[index] as number];
    values[index] = typeof value === 'boolean' ? Number(value) : value;
  }
  return values;
}

// by name, as the CLI tells SQLite's errors apart: this module only types the driver, sqliteOpen.ts loads it
function refused(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'SqliteError' &&
    refusingCodes.has((error as { code?: unknown }).code as string)
  );
}

/**
 * A store file's database as the store core runs SQL on it. Statements are
 * prepared on first use and kept, so a read-only file of an older schema
 * never prepares one it cannot run; their `$n` parameters become SQLite's
 * `?`, bound in the order they appear (a number may appear twice). A
 * transaction is `BEGIN IMMEDIATE`, so a concurrent writer makes it wait for
 * the write lock, never fail.
 *
 * @internal the SQLite adapters' own helper.
 * @example
 * ```ts
 * const connection = sqliteConnection(openStoreDatabase('.arena/arena.db'));
 * connection.get<{ n: number }>('SELECT COUNT(*) AS n FROM runs WHERE uid = $1', ['grid']); // { n: 3 }
 * ```
 */
export function sqliteConnection(db: Database.Database): SqlConnection {
  const statements = new Map<string, Prepared>();
  const prepared = (sql: string): Prepared => {
    let found = statements.get(sql);
    if (found === undefined) {
      // positional, not named: better-sqlite3 binds an array of values fastest (no $ in arena's SQL text but parameters)
      const order: number[] = [];
      const text = sql.replace(/\$(\d+)/g, (_match, number: string) => {
        order.push(Number(number) - 1);
        return '?';
      });
      found = { statement: db.prepare(text), order };
      statements.set(sql, found);
    }
    return found;
  };
  return {
    all<Row>(sql: string, params: readonly unknown[] = []) {
      const statement = prepared(sql);
      return statement.statement.all(bound(statement, params)) as Row[];
    },
    get<Row>(sql: string, params: readonly unknown[] = []) {
      const statement = prepared(sql);
      try {
        return statement.statement.get(bound(statement, params)) as Row | undefined;
      } catch (error) {
        if (refused(error)) return undefined;
        throw error;
      }
    },
    run(sql, params = []) {
      const statement = prepared(sql);
      try {
        return statement.statement.run(bound(statement, params)).changes;
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
