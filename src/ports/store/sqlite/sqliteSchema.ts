import {
  checkpointsTable,
  episodesTable,
  evaluationCasesTable,
  evaluationRunsTable,
  judgeCalibrationsTable,
  metaDecisionsTable,
  remoteComponentsTable,
  resumesTable,
  runDeliveriesColumns,
  sequentialGatesTable,
  snapshotsTable,
  sqliteColumnTypes,
  sweepTables,
  verdictCacheTable,
  verdictsTable,
} from '../core/storeTables.js';
import { StoreOpenError, StoreSchemaError } from '../storeErrors.js';
import { sqliteSealingMigration } from './sqliteSealing.js';

/**
 * The store's schema, one migration per version. Migration `i` takes a file at
 * `user_version` i to i + 1; never edit a shipped migration, append a new one.
 */
export const storeMigrations: readonly string[] = [
  `
  CREATE TABLE runs (
    run_id TEXT PRIMARY KEY,
    uid TEXT NOT NULL,
    seed INTEGER NOT NULL,
    run_file TEXT NOT NULL,
    run_file_path TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled')),
    started_at TEXT NOT NULL,
    ended_at TEXT,
    error TEXT,
    summary TEXT
  ) STRICT;
  CREATE INDEX runs_by_start ON runs (started_at, run_id);

  CREATE TABLE phases (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    phase_index INTEGER NOT NULL,
    name TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('train', 'test')),
    status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'cancelled')),
    termination_reason TEXT,
    episodes INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    PRIMARY KEY (run_id, phase_index)
  ) STRICT;

  ${episodesTable(sqliteColumnTypes)}

  ${checkpointsTable(sqliteColumnTypes)}

  ${metaDecisionsTable(sqliteColumnTypes)}

  ${snapshotsTable(sqliteColumnTypes)}
  `,
  // 2: leases, the run file's and user modules' hashes, resumes, phase errors
  `
  ALTER TABLE runs ADD COLUMN run_file_sha256 TEXT;
  ALTER TABLE runs ADD COLUMN modules TEXT;
  ALTER TABLE runs ADD COLUMN lease_owner TEXT;
  ALTER TABLE runs ADD COLUMN lease_token INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE runs ADD COLUMN lease_heartbeat_ms INTEGER;
  ALTER TABLE runs ADD COLUMN lease_expires_ms INTEGER;
  ALTER TABLE phases ADD COLUMN error TEXT;

  ${resumesTable(sqliteColumnTypes)}
  `,
  // 3: status 'queued' (arena submit); SQLite cannot alter a CHECK, so the table is rebuilt (sqlite.org/lang_altertable.html#otheralter)
  `
  CREATE TABLE runs_v3 (
    run_id TEXT PRIMARY KEY,
    uid TEXT NOT NULL,
    seed INTEGER NOT NULL,
    run_file TEXT NOT NULL,
    run_file_path TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
    started_at TEXT NOT NULL,
    ended_at TEXT,
    error TEXT,
    summary TEXT,
    run_file_sha256 TEXT,
    modules TEXT,
    lease_owner TEXT,
    lease_token INTEGER NOT NULL DEFAULT 0,
    lease_heartbeat_ms INTEGER,
    lease_expires_ms INTEGER
  ) STRICT;
  INSERT INTO runs_v3 (run_id, uid, seed, run_file, run_file_path, status, started_at, ended_at, error,
      summary, run_file_sha256, modules, lease_owner, lease_token, lease_heartbeat_ms, lease_expires_ms)
    SELECT run_id, uid, seed, run_file, run_file_path, status, started_at, ended_at, error,
      summary, run_file_sha256, modules, lease_owner, lease_token, lease_heartbeat_ms, lease_expires_ms
    FROM runs;
  DROP TABLE runs;
  ALTER TABLE runs_v3 RENAME TO runs;
  CREATE INDEX runs_by_start ON runs (started_at, run_id);
  `,
  // 4: evaluation runs (arena judge), one verdict per (run, case, judge), the verdict cache
  `
  ${evaluationRunsTable(sqliteColumnTypes)}

  ${verdictsTable(sqliteColumnTypes)}
  CREATE INDEX verdicts_by_seq ON verdicts (evaluation_run_id, seq);

  ${verdictCacheTable(sqliteColumnTypes)}
  `,
  // 5: each run's deliveries to workers, counted where a dying worker cannot lose them
  runDeliveriesColumns,
  // 6: the cases of an evaluation run, so the judge queue can be rebuilt from the store
  `
  ${evaluationCasesTable(sqliteColumnTypes)}
  `,
  // 7: which instance of which service served each remote component of a run
  `
  ${remoteComponentsTable(sqliteColumnTypes)}
  `,
  // 8: sweeps, their state, and which run is which trial
  `
  ${sweepTables(sqliteColumnTypes)}
  `,
  // 9: calibrations of judges against people's labels, under each judge's fingerprint
  `
  ${judgeCalibrationsTable(sqliteColumnTypes)}
  `,
  // 10: a finished run's and evaluation run's records sealed by a digest; judged texts dropped at the end
  sqliteSealingMigration,
  // 11: the sequential gate of an evaluation run: its draw order and fold state, to resume and to judge on a fleet
  `
  ${sequentialGatesTable(sqliteColumnTypes)}
  `,
];

/**
 * What `migrateStore` needs of a better-sqlite3 `Database`, which satisfies it. Named
 * here so the published declarations need no `@types/better-sqlite3` (a devDependency).
 */
export interface MigratableDatabase {
  exec(sql: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<Result>(run: () => Result): { immediate(): Result };
  prepare(sql: string): { get(...parameters: unknown[]): unknown };
}

/**
 * Bring the file's schema up to date, in one transaction, and return the
 * version it had before. A file from a newer arena is refused, not touched.
 *
 * @example
 * ```ts
 * migrateStore(new Database(':memory:'), ':memory:'); // 0 (and the file is now at version 5)
 * ```
 */
export function migrateStore(db: MigratableDatabase, path: string): number {
  // a current store needs no write: opening it never queues behind another process's transaction
  const current = storeVersion(db);
  if (current === storeMigrations.length) return current;
  // a table rebuild drops a parent table: with foreign keys on, that would cascade into its children
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    return migrateInTransaction(db, path);
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys === 1 ? 'ON' : 'OFF'}`);
  }
}

function migrateInTransaction(db: MigratableDatabase, path: string): number {
  // IMMEDIATE: two processes opening a new file at once migrate it one after the other.
  const migrate = db.transaction((): number => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > storeMigrations.length) {
      throw new StoreSchemaError(path, version, storeMigrations.length);
    }
    if (version === 0 && hasTables(db)) {
      throw new StoreOpenError(
        path,
        'a SQLite database, but not an arena store (it has tables of its own)',
      );
    }
    for (const migration of storeMigrations.slice(version)) db.exec(migration);
    // the rebuild kept every child row's parent: checked before the migration commits
    const orphans = db.pragma('foreign_key_check') as unknown[];
    if (orphans.length > 0) {
      throw new StoreOpenError(path, `${orphans.length} rows lost their run in the migration`);
    }
    db.pragma(`user_version = ${storeMigrations.length}`);
    return version;
  });
  return migrate.immediate();
}

/** The schema version a file has, without changing it. */
export function storeVersion(db: MigratableDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function hasTables(db: MigratableDatabase): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").get() !== undefined;
}
