/**
 * A synchronous way to run SQL, as the run store core needs it. Every
 * statement numbers its parameters `$1`, `$2`, … (PostgreSQL's own; SQLite's
 * connection rewrites them as its `?`), a parameter may appear more than
 * once, and flags are passed as booleans.
 */
export interface SqlConnection {
  /** Every row a query returns. */
  all<Row>(sql: string, params?: readonly unknown[]): Row[];
  /**
   * The first row a statement returns, or `undefined`: for no row, and for a
   * write that a key refused (its key is taken, or its parent row is missing).
   */
  get<Row>(sql: string, params?: readonly unknown[]): Row | undefined;
  /** How many rows a write changed: 0, never an error, when a key refused it. */
  run(sql: string, params?: readonly unknown[]): number;
  /**
   * Run `work` in one write transaction that holds the write lock before it
   * reads; one inside another is a savepoint, so only the inner one rolls back.
   */
  transaction<T>(work: () => T): T;
  close(): void;
}
