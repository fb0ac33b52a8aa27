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

  CREATE TABLE episodes (
    run_id TEXT NOT NULL,
    phase_index INTEGER NOT NULL,
    episode INTEGER NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('train', 'test')),
    evaluation BOOLEAN NOT NULL,
    episode_return DOUBLE PRECISION NOT NULL,
    steps INTEGER NOT NULL,
    returns_by_agent TEXT NOT NULL,
    done_reason TEXT NOT NULL,
    PRIMARY KEY (run_id, phase_index, episode),
    FOREIGN KEY (run_id, phase_index) REFERENCES phases (run_id, phase_index) ON DELETE CASCADE
  );

  CREATE TABLE checkpoints (
    run_id TEXT NOT NULL,
    phase_index INTEGER NOT NULL,
    checkpoint_index INTEGER NOT NULL,
    after_episode INTEGER NOT NULL,
    outcomes TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('accepted', 'ignored', 'rejected')),
    decision TEXT NOT NULL,
    error TEXT,
    PRIMARY KEY (run_id, phase_index, checkpoint_index),
    FOREIGN KEY (run_id, phase_index) REFERENCES phases (run_id, phase_index) ON DELETE CASCADE
  );

  CREATE TABLE meta_decisions (
    run_id TEXT NOT NULL,
    phase_index INTEGER NOT NULL,
    start_request INTEGER NOT NULL,
    first_episode INTEGER NOT NULL,
    environment_uid TEXT NOT NULL,
    agent_name TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (run_id, phase_index, start_request),
    FOREIGN KEY (run_id, phase_index) REFERENCES phases (run_id, phase_index) ON DELETE CASCADE
  );

  CREATE TABLE snapshots (
    run_id TEXT NOT NULL,
    phase_index INTEGER NOT NULL,
    episode INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (run_id, phase_index, episode),
    FOREIGN KEY (run_id, phase_index) REFERENCES phases (run_id, phase_index) ON DELETE CASCADE
  );

  CREATE TABLE resumes (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    resume_index INTEGER NOT NULL,
    resumed_at TEXT NOT NULL,
    owner TEXT NOT NULL,
    phase_index INTEGER NOT NULL,
    episode INTEGER NOT NULL,
    forced BOOLEAN NOT NULL,
    changed_modules TEXT NOT NULL,
    PRIMARY KEY (run_id, resume_index)
  );
  `,
  // 2: a run may wait in a queue before a worker starts it (the SQLite store's migration 3)
  `
  ALTER TABLE runs DROP CONSTRAINT runs_status_check;
  ALTER TABLE runs ADD CONSTRAINT runs_status_check
    CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled'));
  `,
  // 3: evaluation runs, verdicts and the verdict cache (the SQLite store's migration 4)
  `
  CREATE TABLE evaluation_runs (
    evaluation_run_id TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'cancelled', 'failed')),
    judge_name TEXT NOT NULL,
    judge_config TEXT NOT NULL,
    config_dir TEXT NOT NULL,
    cases_file TEXT NOT NULL,
    cases_sha256 TEXT NOT NULL,
    cache BOOLEAN NOT NULL,
    cases_total INTEGER,
    malformed_lines INTEGER NOT NULL DEFAULT 0,
    -- COUNT(*) of its verdicts, kept with each one: finishing a run must not cost a scan per verdict
    verdicts_recorded INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    ended_at TEXT,
    error TEXT
  );

  CREATE TABLE verdicts (
    seq BIGSERIAL PRIMARY KEY,
    evaluation_run_id TEXT NOT NULL REFERENCES evaluation_runs (evaluation_run_id) ON DELETE CASCADE,
    case_key TEXT NOT NULL,
    judge_name TEXT NOT NULL,
    result TEXT NOT NULL,
    status TEXT NOT NULL,
    from_cache BOOLEAN NOT NULL,
    worker TEXT,
    recorded_at TEXT NOT NULL,
    UNIQUE (evaluation_run_id, case_key, judge_name)
  );
  CREATE INDEX verdicts_by_seq ON verdicts (evaluation_run_id, seq);

  CREATE TABLE verdict_cache (
    cache_key TEXT PRIMARY KEY,
    prompt_sha256 TEXT NOT NULL,
    model TEXT,
    judge_version TEXT NOT NULL,
    rubric_version TEXT NOT NULL,
    result TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
];

/** Any arena's lock key for migrating (`pg_advisory_xact_lock`): two processes opening a new database migrate it one after the other. */
export const migrationLockKey = 0x4152454e; // 'AREN'
