/**
 * The tables both store schemas create, written once with the column types
 * that differ: SQLite's STRICT tables have no booleans and a rowid key, where
 * PostgreSQL has BOOLEAN and BIGSERIAL. Each text is part of a shipped
 * migration of both schemas, so it is never edited (a test pins every
 * migration's text); a change to a table is a new migration of each.
 */

/** How a database spells the column types the two schemas write differently. */
export interface ColumnTypes {
  /** A NOT NULL flag column. */
  flag(column: string): string;
  /** A double-precision number. */
  readonly double: string;
  /** A 64-bit integer (PostgreSQL's INTEGER has 32 bits). */
  readonly bigInteger: string;
  /** A key that numbers rows as they are inserted. */
  readonly sequenceKey: string;
  /** What follows a table's columns (SQLite's ` STRICT`). */
  readonly tableOptions: string;
}

export const sqliteColumnTypes: ColumnTypes = {
  flag: (column) => `INTEGER NOT NULL CHECK (${column} IN (0, 1))`,
  double: 'REAL',
  bigInteger: 'INTEGER',
  sequenceKey: 'INTEGER PRIMARY KEY',
  tableOptions: ' STRICT',
};

export const postgresColumnTypes: ColumnTypes = {
  flag: () => 'BOOLEAN NOT NULL',
  double: 'DOUBLE PRECISION',
  bigInteger: 'BIGINT',
  sequenceKey: 'BIGSERIAL PRIMARY KEY',
  tableOptions: '',
};

/** A table of rows below a phase: keyed by run, phase and `key`, deleted with its phase. */
const phaseRowsTable = (
  types: ColumnTypes,
  name: string,
  key: string,
  columns: string,
): string => `CREATE TABLE ${name} (
    run_id TEXT NOT NULL,
    phase_index INTEGER NOT NULL,
    ${columns},
    PRIMARY KEY (run_id, phase_index, ${key}),
    FOREIGN KEY (run_id, phase_index) REFERENCES phases (run_id, phase_index) ON DELETE CASCADE
  )${types.tableOptions};`;

export const episodesTable = (types: ColumnTypes): string =>
  phaseRowsTable(
    types,
    'episodes',
    'episode',
    `episode INTEGER NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('train', 'test')),
    evaluation ${types.flag('evaluation')},
    episode_return ${types.double} NOT NULL,
    steps INTEGER NOT NULL,
    returns_by_agent TEXT NOT NULL,
    done_reason TEXT NOT NULL`,
  );

export const checkpointsTable = (types: ColumnTypes): string =>
  phaseRowsTable(
    types,
    'checkpoints',
    'checkpoint_index',
    `checkpoint_index INTEGER NOT NULL,
    after_episode INTEGER NOT NULL,
    outcomes TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('accepted', 'ignored', 'rejected')),
    decision TEXT NOT NULL,
    error TEXT`,
  );

export const metaDecisionsTable = (types: ColumnTypes): string =>
  phaseRowsTable(
    types,
    'meta_decisions',
    'start_request',
    `start_request INTEGER NOT NULL,
    first_episode INTEGER NOT NULL,
    environment_uid TEXT NOT NULL,
    agent_name TEXT NOT NULL,
    record TEXT NOT NULL`,
  );

export const snapshotsTable = (types: ColumnTypes): string =>
  phaseRowsTable(
    types,
    'snapshots',
    'episode',
    `episode INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    state TEXT NOT NULL`,
  );

export const resumesTable = (types: ColumnTypes): string => `CREATE TABLE resumes (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    resume_index INTEGER NOT NULL,
    resumed_at TEXT NOT NULL,
    owner TEXT NOT NULL,
    phase_index INTEGER NOT NULL,
    episode INTEGER NOT NULL,
    forced ${types.flag('forced')},
    changed_modules TEXT NOT NULL,
    PRIMARY KEY (run_id, resume_index)
  )${types.tableOptions};`;

export const evaluationRunsTable = (types: ColumnTypes): string => `CREATE TABLE evaluation_runs (
    evaluation_run_id TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'cancelled', 'failed')),
    judge_name TEXT NOT NULL,
    judge_config TEXT NOT NULL,
    config_dir TEXT NOT NULL,
    cases_file TEXT NOT NULL,
    cases_sha256 TEXT NOT NULL,
    cache ${types.flag('cache')},
    cases_total INTEGER,
    malformed_lines INTEGER NOT NULL DEFAULT 0,
    -- COUNT(*) of its verdicts, kept with each one: finishing a run must not cost a scan per verdict
    verdicts_recorded INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    ended_at TEXT,
    error TEXT
  )${types.tableOptions};`;

export const verdictsTable = (types: ColumnTypes): string => `CREATE TABLE verdicts (
    seq ${types.sequenceKey},
    evaluation_run_id TEXT NOT NULL REFERENCES evaluation_runs (evaluation_run_id) ON DELETE CASCADE,
    case_key TEXT NOT NULL,
    judge_name TEXT NOT NULL,
    result TEXT NOT NULL,
    status TEXT NOT NULL,
    from_cache ${types.flag('from_cache')},
    worker TEXT,
    recorded_at TEXT NOT NULL,
    UNIQUE (evaluation_run_id, case_key, judge_name)
  )${types.tableOptions};`;

export const verdictCacheTable = (types: ColumnTypes): string => `CREATE TABLE verdict_cache (
    cache_key TEXT PRIMARY KEY,
    prompt_sha256 TEXT NOT NULL,
    model TEXT,
    judge_version TEXT NOT NULL,
    rubric_version TEXT NOT NULL,
    result TEXT NOT NULL,
    created_at TEXT NOT NULL
  )${types.tableOptions};`;

/**
 * A run's deliveries to workers, counted in the store so that a delivery whose
 * worker died is still counted: claimed before the run starts or resumes on a
 * worker, settled when that worker ended the delivery itself. The same text in
 * both databases (SQLite schema 5, PostgreSQL schema 4).
 */
export const runDeliveriesColumns = `
  ALTER TABLE runs ADD COLUMN deliveries INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE runs ADD COLUMN deliveries_settled INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE runs ADD COLUMN delivery_owner TEXT;
  `;

/** Each queued case of an evaluation run, as it was queued: the judge queue is rebuilt from it (arena requeue). */
export const evaluationCasesTable = (types: ColumnTypes): string => `CREATE TABLE evaluation_cases (
    evaluation_run_id TEXT NOT NULL REFERENCES evaluation_runs (evaluation_run_id) ON DELETE CASCADE,
    case_key TEXT NOT NULL,
    context TEXT NOT NULL,
    PRIMARY KEY (evaluation_run_id, case_key)
  )${types.tableOptions};`;

/** Which instance served each remote component session of a run (SQLite schema 7, PostgreSQL schema 6). */
export const remoteComponentsTable = (
  types: ColumnTypes,
): string => `CREATE TABLE remote_components (
    run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    session TEXT NOT NULL,
    -- 1-based, in the order the run opened its sessions
    open_index INTEGER NOT NULL,
    phase_index INTEGER NOT NULL,
    kind TEXT NOT NULL,
    component TEXT NOT NULL,
    service TEXT NOT NULL,
    instance TEXT NOT NULL,
    host TEXT,
    pid INTEGER,
    opened_at TEXT NOT NULL,
    PRIMARY KEY (run_id, session)
  )${types.tableOptions};`;

/**
 * Sweeps (`arena sweep`): each sweep's file and its state, persisted at every
 * decision, and which run is which trial, with the checkpoint count a trial
 * holds at until its rung is decided (SQLite schema 8, PostgreSQL schema 7).
 */
export const sweepTables = (types: ColumnTypes): string => `CREATE TABLE sweeps (
    sweep_id TEXT PRIMARY KEY,
    uid TEXT NOT NULL,
    sweep_file TEXT NOT NULL,
    sweep_file_path TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled')),
    state TEXT NOT NULL,
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )${types.tableOptions};

  CREATE TABLE sweep_trials (
    sweep_id TEXT NOT NULL REFERENCES sweeps (sweep_id) ON DELETE CASCADE,
    trial_index INTEGER NOT NULL,
    run_id TEXT NOT NULL UNIQUE REFERENCES runs (run_id) ON DELETE CASCADE,
    parameters TEXT NOT NULL,
    -- the checkpoint count the trial's run holds at (handed back) until its rung is decided; NULL: none
    hold_at INTEGER,
    PRIMARY KEY (sweep_id, trial_index)
  )${types.tableOptions};`;

/**
 * Calibrations of judges against people's labels, each under the judge's
 * fingerprint (and its parts, to say later what changed), newest last
 * (SQLite schema 9, PostgreSQL schema 8).
 */
export const judgeCalibrationsTable = (
  types: ColumnTypes,
): string => `CREATE TABLE judge_calibrations (
    calibration_id ${types.sequenceKey},
    fingerprint TEXT NOT NULL,
    fingerprint_parts TEXT NOT NULL,
    judge_name TEXT NOT NULL,
    labels_sha256 TEXT NOT NULL,
    n INTEGER NOT NULL,
    kappa ${types.double},
    kappa_lo ${types.double},
    kappa_hi ${types.double},
    false_pass_rate ${types.double},
    confusion TEXT NOT NULL,
    calibrated_at TEXT NOT NULL
  )${types.tableOptions};
  CREATE INDEX judge_calibrations_by_fingerprint ON judge_calibrations (fingerprint, calibration_id);
  CREATE INDEX judge_calibrations_by_judge ON judge_calibrations (judge_name, calibration_id);`;

/**
 * The sequential gate of an evaluation run (SQLite schema 10, PostgreSQL
 * schema 9): its draw order (the seed, the cases, the order's digest) and its
 * fold state, saved by the submitter at each quiet point, so a resumed or
 * distributed run folds on from it; a decided gate is never written again.
 */
export const sequentialGatesTable = (types: ColumnTypes): string => `CREATE TABLE sequential_gates (
    evaluation_run_id TEXT PRIMARY KEY REFERENCES evaluation_runs (evaluation_run_id) ON DELETE CASCADE,
    seed ${types.bigInteger} NOT NULL,
    total INTEGER NOT NULL,
    order_sha256 TEXT NOT NULL,
    folded INTEGER NOT NULL,
    state TEXT NOT NULL,
    decision TEXT CHECK (decision IN ('pass', 'fail')),
    decided_at INTEGER,
    judged INTEGER NOT NULL,
    updated_at TEXT NOT NULL
  )${types.tableOptions};`;

/** The run store's tables, there since each schema's first version that had them all (SQLite 2, PostgreSQL 1). */
export const runTables = [
  'runs',
  'phases',
  'episodes',
  'checkpoints',
  'meta_decisions',
  'snapshots',
  'resumes',
] as const;

/** The judge store's tables (SQLite schema 4, PostgreSQL schema 3). */
export const judgeTables = ['evaluation_runs', 'verdicts', 'verdict_cache'] as const;
