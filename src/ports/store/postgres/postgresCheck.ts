import { deepCheck, postgresDigestSql } from '../core/sealedRecords.js';
import type { StoreCheck, StoreCheckOptions } from '../core/storeCheck.js';
import { judgeTables, runTables } from '../core/storeTables.js';
import { openPostgresConnection } from './postgresOpen.js';
import { postgresMigrations } from './postgresSchema.js';
import { parsePostgresUri } from './postgresUri.js';

/**
 * Check a PostgreSQL store read-only: it is reachable, an arena store of a
 * schema this arena knows, and has every table. PostgreSQL itself enforces
 * keys and foreign keys, so there is no file damage to look for.
 *
 * @example
 * ```ts
 * checkPostgresStore('postgres://arena@127.0.0.1:5432/arena');
 * // { path: 'postgres://arena@127.0.0.1:5432/arena', schemaVersion: 1, upToDate: true, runs: 3, problems: [] }
 * ```
 */
export function checkPostgresStore(uri: string, options: StoreCheckOptions = {}): StoreCheck {
  const { config, display } = parsePostgresUri(uri);
  const connection = openPostgresConnection(display, config, { readonly: true });
  try {
    const schemaVersion =
      connection.query<{ version: number }>('SELECT version FROM arena_schema').rows[0]?.version ??
      0;
    // the judge tables are there since schema version 3, the stored cases since 5, remote components since 6
    const expected: string[] = [
      ...runTables,
      ...(schemaVersion >= 3 ? judgeTables : []),
      ...(schemaVersion >= 5 ? ['evaluation_cases'] : []),
      ...(schemaVersion >= 6 ? ['remote_components'] : []),
      ...(schemaVersion >= 7 ? ['sweeps', 'sweep_trials'] : []),
      ...(schemaVersion >= 8 ? ['judge_calibrations'] : []),
    ];
    const missing = expected.filter(
      (table) =>
        connection.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [table])
          .rows[0]?.found === null,
    );
    const runs = missing.includes('runs')
      ? 0
      : (connection.query<{ count: number }>('SELECT COUNT(*) AS count FROM runs').rows[0]?.count ??
        0);
    // digests are kept since schema 9 (postgresRoleRules.ts)
    const deep =
      options.deep === true && missing.length === 0 && schemaVersion >= 9
        ? deepCheck((sql) => connection.query(sql).rows, postgresDigestSql, true)
        : undefined;
    return {
      path: display,
      schemaVersion,
      upToDate: schemaVersion === postgresMigrations.length,
      runs,
      problems: missing.map((table) => `table ${table} is missing`),
      ...(deep === undefined ? {} : { deep }),
    };
  } finally {
    connection.close();
  }
}
