/**
 * Where a benchmark's PostgreSQL CPU goes (`FLEET_COST_PG_PROFILE=1`): the
 * server runs with `pg_stat_statements`, and after each batch of work this
 * prints the sessions started (each one a forked backend), the transactions
 * committed, and the statements that took the most execution time, each with
 * its calls and time per case.
 */
import type { TestPostgres } from '../test/support/postgres.js';

/** The server settings a profile needs. */
export const profiledSettings = [
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track=all',
  'pg_stat_statements.max=1000',
];

interface DatabaseCounts {
  readonly sessions: number;
  readonly commits: number;
}

/** The statistics of every database, summed. */
async function databaseCounts(postgres: TestPostgres): Promise<DatabaseCounts> {
  const [row] = await postgres.query<{ sessions: string; commits: string }>(
    `SELECT sum(sessions)::text AS sessions, sum(xact_commit)::text AS commits
     FROM pg_stat_database`,
  );
  return { sessions: Number(row?.sessions ?? 0), commits: Number(row?.commits ?? 0) };
}

/** A profile of the work done between `start()` and `print()`. */
export interface PostgresProfile {
  start(): Promise<void>;
  print(label: string, cases: number): Promise<void>;
}

/** Profiles the statements of `postgres` (started with `profiledSettings`). */
export async function postgresProfile(postgres: TestPostgres): Promise<PostgresProfile> {
  await postgres.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  let before: DatabaseCounts = { sessions: 0, commits: 0 };
  return {
    async start() {
      await postgres.query('SELECT pg_stat_statements_reset()');
      await postgres.query('SELECT pg_stat_reset_shared($1)', ['bgwriter']);
      // a backend's counts reach pg_stat_database when it is idle (at most a second late)
      await new Promise((resolve) => setTimeout(resolve, 1100));
      before = await databaseCounts(postgres);
    },
    async print(label, cases) {
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const after = await databaseCounts(postgres);
      const statements = await postgres.query<{
        calls: string;
        total: number;
        rows: string;
        query: string;
      }>(
        `SELECT calls::text, total_exec_time AS total, rows::text, query FROM pg_stat_statements
         WHERE query NOT LIKE '%pg_stat%' ORDER BY total_exec_time DESC`,
      );
      const totalMs = statements.reduce((sum, each) => sum + each.total, 0);
      const calls = statements.reduce((sum, each) => sum + Number(each.calls), 0);
      console.log(
        `  PostgreSQL profile, ${label}: ${after.sessions - before.sessions} sessions started, ${after.commits - before.commits} commits, ${calls} statements (${(calls / cases).toFixed(3)} a case), ${totalMs.toFixed(0)} ms executing (${(totalMs / cases).toFixed(3)} ms a case)`,
      );
      for (const each of statements.slice(0, 12)) {
        const text = each.query.replace(/\s+/g, ' ').slice(0, 110);
        console.log(
          `    ${each.total.toFixed(0).padStart(6)} ms ${each.calls.padStart(6)} calls ${(Number(each.calls) / cases).toFixed(3)}/case  ${text}`,
        );
      }
    },
  };
}
