import {
  checkpointsTable,
  episodesTable,
  evaluationCasesTable,
  evaluationRunsTable,
  judgeCalibrationsTable,
  metaDecisionsTable,
  postgresColumnTypes,
  remoteComponentsTable,
  resumesTable,
  runDeliveriesColumns,
  sequentialGatesTable,
  snapshotsTable,
  sweepTables,
  verdictCacheTable,
  verdictsTable,
} from '../core/storeTables.js';
import { postgresCheaperRulesMigration } from './postgresCheaperRules.js';
import { postgresRoleRulesMigration } from './postgresRoleRules.js';

/**
 * The PostgreSQL store's schema, one migration per version, kept in
 * `arena_schema`. The tables and columns are the SQLite store's; JSON fields
 * are TEXT holding canonical JSON, byte for byte what SQLite holds, because
 * JSONB reorders keys, rewrites numbers (1e-7 becomes 0.0000001) and refuses
 * strings with NUL or a lone surrogate, so a stored value would not always
 * read back as the same object. Cast a column (`state::jsonb`) to query it.
 * Never edit a shipped migration; append a new one.
 */
export const postgresMigrations: readonly string[] = [
  `
  CREATE TABLE runs (
    run_id TEXT PRIMARY KEY,
    uid TEXT NOT NULL,
    seed BIGINT NOT NULL,
    run_file TEXT NOT NULL,
    run_file_path TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled')),
    started_at TEXT NOT NULL,
    ended_at TEXT,
    error TEXT,
    summary TEXT,
    run_file_sha256 TEXT,
    modules TEXT,
    lease_owner TEXT,
    lease_token BIGINT NOT NULL DEFAULT 0,
    lease_heartbeat_ms BIGINT,
    lease_expires_ms BIGINT
  );
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
    error TEXT,
    PRIMARY KEY (run_id, phase_index)
  );

  ${episodesTable(postgresColumnTypes)}

  ${checkpointsTable(postgresColumnTypes)}

  ${metaDecisionsTable(postgresColumnTypes)}

  ${snapshotsTable(postgresColumnTypes)}

  ${resumesTable(postgresColumnTypes)}
  `,
  // 2: a run may wait in a queue before a worker starts it (the SQLite store's migration 3)
  `
  ALTER TABLE runs DROP CONSTRAINT runs_status_check;
  ALTER TABLE runs ADD CONSTRAINT runs_status_check
    CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled'));
  `,
  // 3: evaluation runs, verdicts and the verdict cache (the SQLite store's migration 4)
  `
  ${evaluationRunsTable(postgresColumnTypes)}

  ${verdictsTable(postgresColumnTypes)}
  CREATE INDEX verdicts_by_seq ON verdicts (evaluation_run_id, seq);

  ${verdictCacheTable(postgresColumnTypes)}
  `,
  // 4: each run's deliveries to workers (the SQLite store's migration 5)
  runDeliveriesColumns,
  // 5: the cases of an evaluation run, so the judge queue can be rebuilt from the store (the SQLite store's migration 6)
  `
  ${evaluationCasesTable(postgresColumnTypes)}
  `,
  // 6: which instance of which service served each remote component of a run (the SQLite store's migration 7)
  `
  ${remoteComponentsTable(postgresColumnTypes)}
  `,
  // 7: sweeps, their state, and which run is which trial (the SQLite store's migration 8)
  `
  ${sweepTables(postgresColumnTypes)}
  `,
  // 8: calibrations of judges against people's labels (the SQLite store's migration 9)
  `
  ${judgeCalibrationsTable(postgresColumnTypes)}
  `,
  // 9: the roles' rules on every row (leases, finished runs), a finished run sealed by a digest, judged texts dropped (the SQLite store's migration 10, without roles)
  postgresRoleRulesMigration,
  // 10: the sequential gate of an evaluation run (the SQLite store's migration 11)
  `
  ${sequentialGatesTable(postgresColumnTypes)}
  `,
  // 11: the role rules of schema 9 on each verdict and case, without a search_path set per row
  postgresCheaperRulesMigration,
];

/** Any arena's lock key for migrating (`pg_advisory_xact_lock`): two processes opening a new database migrate it one after the other. */
export const migrationLockKey = 0x4152454e; // 'AREN'
