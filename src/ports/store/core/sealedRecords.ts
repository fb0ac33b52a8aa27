/**
 * What a finished run's and a finished evaluation run's digest covers: each
 * table's rows of the run, in key order, as the columns below. The digest is
 * taken by the database when the run finishes (a trigger, whoever finished
 * it) and kept in the run's row (`records_digest`); `arena check --deep`
 * takes it again and names each table whose rows changed since.
 */
export interface SealedTable {
  readonly table: string;
  /** The column naming the run in this table. */
  readonly key: string;
  readonly order: string;
  readonly columns: readonly string[];
}

export const sealedRunTables: readonly SealedTable[] = [
  {
    table: 'runs',
    key: 'run_id',
    order: 'run_id',
    columns: [
      'uid',
      'seed',
      'run_file',
      'run_file_path',
      'run_file_sha256',
      'modules',
      'status',
      'started_at',
      'ended_at',
      'error',
      'summary',
    ],
  },
  {
    table: 'phases',
    key: 'run_id',
    order: 'phase_index',
    columns: [
      'phase_index',
      'name',
      'mode',
      'status',
      'termination_reason',
      'episodes',
      'started_at',
      'ended_at',
      'error',
    ],
  },
  {
    table: 'episodes',
    key: 'run_id',
    order: 'phase_index, episode',
    columns: [
      'phase_index',
      'episode',
      'mode',
      'evaluation',
      'episode_return',
      'steps',
      'returns_by_agent',
      'done_reason',
    ],
  },
  {
    table: 'checkpoints',
    key: 'run_id',
    order: 'phase_index, checkpoint_index',
    columns: [
      'phase_index',
      'checkpoint_index',
      'after_episode',
      'outcomes',
      'status',
      'decision',
      'error',
    ],
  },
  {
    table: 'meta_decisions',
    key: 'run_id',
    order: 'phase_index, start_request',
    columns: [
      'phase_index',
      'start_request',
      'first_episode',
      'environment_uid',
      'agent_name',
      'record',
    ],
  },
  {
    table: 'snapshots',
    key: 'run_id',
    order: 'phase_index, episode',
    columns: ['phase_index', 'episode', 'created_at', 'state'],
  },
  {
    table: 'resumes',
    key: 'run_id',
    order: 'resume_index',
    columns: [
      'resume_index',
      'resumed_at',
      'owner',
      'phase_index',
      'episode',
      'forced',
      'changed_modules',
    ],
  },
  {
    table: 'remote_components',
    key: 'run_id',
    order: 'open_index',
    columns: [
      'session',
      'open_index',
      'phase_index',
      'kind',
      'component',
      'service',
      'instance',
      'host',
      'pid',
      'opened_at',
    ],
  },
];

export const sealedEvaluationTables: readonly SealedTable[] = [
  {
    table: 'evaluation_runs',
    key: 'evaluation_run_id',
    order: 'evaluation_run_id',
    columns: [
      'status',
      'judge_name',
      'judge_config',
      'config_dir',
      'cases_file',
      'cases_sha256',
      'cache',
      'cases_total',
      'malformed_lines',
      'verdicts_recorded',
      'created_at',
      'ended_at',
      'error',
      'keep_texts',
    ],
  },
  {
    table: 'verdicts',
    key: 'evaluation_run_id',
    order: 'seq',
    columns: ['case_key', 'judge_name', 'result', 'status', 'from_cache', 'worker', 'recorded_at'],
  },
  {
    table: 'evaluation_cases',
    key: 'evaluation_run_id',
    order: 'case_key',
    columns: ['case_key', 'context_sha256'],
  },
];

/** How a database writes a digest: one table's rows of a run, and the object of every table's. */
export interface DigestSql {
  /** The hex SHA-256 of a table's rows of run `id` (an SQL expression), one JSON array a line. */
  tableDigest(table: SealedTable, id: string): string;
  /** A JSON object text from `[name, expression]` pairs. */
  object(entries: readonly (readonly [string, string])[]): string;
}

export const postgresDigestSql: DigestSql = {
  tableDigest: ({ table, key, order, columns }, id) =>
    `(SELECT encode(sha256(convert_to(COALESCE(string_agg(json_build_array(${columns.join(', ')})::text, E'\\n' ORDER BY ${order}), ''), 'UTF8')), 'hex') FROM ${table} WHERE ${key} = ${id})`,
  object: (entries) =>
    `json_build_object(${entries.map(([name, value]) => `'${name}', ${value}`).join(', ')})::text`,
};

/**
 * SQLite has no SHA-256 of its own: `arena_sha256` is registered on every
 * connection arena opens (sqliteOpen.ts). The lines are ordered by a subquery,
 * not `group_concat(… ORDER BY …)`, which SQLite before 3.44 cannot parse
 * (its sqlite3 shell would not open the store).
 */
export const sqliteDigestSql: DigestSql = {
  tableDigest: ({ table, key, order, columns }, id) =>
    `(SELECT arena_sha256(COALESCE(group_concat(line, char(10)), '')) FROM (SELECT json_array(${columns.join(', ')}) AS line FROM ${table} WHERE ${key} = ${id} ORDER BY ${order}))`,
  object: (entries) =>
    `json_object(${entries.map(([name, value]) => `'${name}', ${value}`).join(', ')})`,
};

/** The SQL expression of a run's digest: a JSON object, each sealed table's name to its rows' hex SHA-256. */
export function recordsDigestSql(
  dialect: DigestSql,
  tables: readonly SealedTable[],
  id: string,
): string {
  return dialect.object(tables.map((table) => [table.table, dialect.tableDigest(table, id)]));
}

/**
 * The tables whose digest differs between the one kept at the end and the one taken now.
 *
 * @example
 * ```ts
 * changedTables('{"runs":"a1","episodes":"b2"}', '{"runs":"a1","episodes":"c3"}');
 * // ['episodes']
 * ```
 */
export function changedTables(kept: string, now: string): string[] {
  const before = JSON.parse(kept) as Record<string, string | null>;
  const after = JSON.parse(now) as Record<string, string | null>;
  return Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
}

/** A finished run (or evaluation run) whose records changed since its digest was taken. */
export interface ChangedRecords {
  readonly kind: 'run' | 'evaluation run';
  readonly id: string;
  readonly tables: readonly string[];
}

/** What `arena check --deep` found: how many finished runs it verified, and which changed. */
export interface DeepCheck {
  readonly verified: number;
  readonly changed: readonly ChangedRecords[];
}

interface DigestRow {
  id: string;
  kept: string;
  now: string;
}

/**
 * Take each sealed run's digest again and compare it with the one kept when
 * it finished. `query` runs one SELECT; `judgeTables`: the store has
 * evaluation runs. Runs finished before the digests existed are not counted.
 *
 * @internal the store checks' own helper.
 * @example
 * ```ts
 * deepCheck((sql) => db.prepare(sql).all(), sqliteDigestSql, true);
 * // { verified: 3, changed: [{ kind: 'run', id: 'grid-…', tables: ['episodes'] }] }
 * ```
 */
export function deepCheck(
  query: (sql: string) => readonly unknown[],
  dialect: DigestSql,
  judgeTables: boolean,
): DeepCheck {
  const sealed = (
    kind: ChangedRecords['kind'],
    table: string,
    key: string,
    tables: readonly SealedTable[],
  ) =>
    (
      query(
        `SELECT ${key} AS id, records_digest AS kept, ${recordsDigestSql(dialect, tables, `sealed.${key}`)} AS now
         FROM ${table} sealed WHERE records_digest IS NOT NULL ORDER BY ${key}`,
      ) as DigestRow[]
    ).map((row) => ({ kind, id: row.id, tables: changedTables(row.kept, row.now) }));
  const all = [
    ...sealed('run', 'runs', 'run_id', sealedRunTables),
    ...(judgeTables
      ? sealed('evaluation run', 'evaluation_runs', 'evaluation_run_id', sealedEvaluationTables)
      : []),
  ];
  return { verified: all.length, changed: all.filter((found) => found.tables.length > 0) };
}
