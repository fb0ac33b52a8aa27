import type {
  CheckpointRow,
  EpisodeRow,
  MetaDecisionRow,
  PhaseRow,
  RemoteComponentRow,
  ResumeRow,
  RunRow,
  SnapshotRow,
  SweepRow,
  SweepTrialRow,
} from '../core/runRows.js';
import type { RunSql, RunStoreDialect } from '../core/runStoreDialect.js';
import { recordColumns } from '../core/runStoreSql.js';
import {
  type MemoryStoreState,
  newRunTables,
  type RunTables,
  undoableChanges,
} from './memoryTables.js';

/** What one statement did: the rows it returns, and how many rows it changed. */
interface Outcome {
  readonly rows: readonly object[];
  readonly changes: number;
}

type Params = readonly unknown[];
type Statement = (params: Params) => Outcome;

const read = (rows: readonly (object | undefined)[]): Outcome => ({
  rows: rows.filter((row) => row !== undefined).map((row) => ({ ...row })),
  changes: 0,
});
const wrote = (changes: number, row?: object): Outcome => ({
  rows: row === undefined ? [] : [{ ...row }],
  changes,
});
const key = (...parts: readonly unknown[]): string => parts.join(':');
const columnNames = new Map(
  Object.entries(recordColumns).map(([table, columns]) => [table, columns.split(', ')]),
);
/** The row an insert writes: each column of `recordColumns[table]` takes its parameter, in order. */
const insertedRow = <Row>(table: keyof typeof recordColumns, params: Params): Row => {
  const row: Record<string, unknown> = {};
  columnNames.get(table)!.forEach((column, index) => {
    row[column] = params[index];
  });
  return row as Row;
};
const byNumbers =
  <T>(...fields: ((row: T) => number)[]) =>
  (a: T, b: T): number => {
    for (const field of fields) {
      const order = field(a) - field(b);
      if (order !== 0) return order;
    }
    return 0;
  };
const episodeOf = (row: { episode: number }): number => row.episode;
const byPhaseThen = <T extends { phase_index: number }>(field: (row: T) => number) =>
  byNumbers<T>((row) => row.phase_index, field);
/** Rows of a phase after the point (phase, episode): a later phase, or later in its phase. */
const laterThan = (phaseIndex: number, episode: number, rowPhase: number, rowEpisode: number) =>
  rowPhase > phaseIndex || (rowPhase === phaseIndex && rowEpisode > episode);

/**
 * The memory store's dialect of the run store core: every statement the core
 * runs, answered by name over plain `Map`s of the rows a database would hold,
 * with its keys, defaults and cascades. The rules (leases and their fencing,
 * duplicates, barriers, rewinds) are the core's; this file is storage only.
 *
 * @internal the memory store's own storage.
 * @example
 * ```ts
 * const store = runStoreOver(memoryDialect(createMemoryStoreState()), coreOptions);
 * ```
 */
export function memoryDialect(state: MemoryStoreState): RunStoreDialect {
  const change = undoableChanges(state);
  let closed = false;

  const tablesOf = (runId: unknown): RunTables | undefined => state.runs.get(String(runId));
  const runRow = ([runId]: Params): Outcome => read([tablesOf(runId)?.row]);
  /** The run's row with `patch` applied where `when` holds: how many rows changed. */
  const updateRun = (
    runId: unknown,
    patch: (row: RunRow) => Partial<RunRow>,
    when: (row: RunRow) => boolean = () => true,
  ): RunRow | undefined => {
    const tables = tablesOf(runId);
    if (tables === undefined || !when(tables.row)) return undefined;
    const old = tables.row;
    tables.row = { ...old, ...patch(old) };
    state.undo?.push(() => {
      tables.row = old;
    });
    return tables.row;
  };
  const updated = (row: RunRow | undefined): Outcome => wrote(row === undefined ? 0 : 1, row);
  /** Insert `row` below a phase: nothing when the phase is missing or the key is taken. */
  const insertBelowPhase =
    <Row extends { run_id: string; phase_index: number }>(
      table: (tables: RunTables) => Map<string, Row>,
      toRow: (params: Params) => Row,
      keyOf: (row: Row) => string,
    ): Statement =>
    (params) => {
      const row = toRow(params);
      const tables = tablesOf(row.run_id);
      if (tables === undefined || !tables.phases.has(row.phase_index)) return wrote(0);
      const rows = table(tables);
      if (rows.has(keyOf(row))) return wrote(0);
      change.put(rows, keyOf(row), row);
      return wrote(1);
    };
  /** Every row of one of a run's tables, sorted, optionally of one phase. */
  const rowsOf =
    <Row extends { phase_index: number }>(
      table: (tables: RunTables) => Map<unknown, Row>,
      order: (a: Row, b: Row) => number,
    ): Statement =>
    ([runId, phaseIndex]) => {
      const tables = tablesOf(runId);
      if (tables === undefined) return read([]);
      const rows = [...table(tables).values()].filter(
        (row) => phaseIndex === undefined || row.phase_index === phaseIndex,
      );
      return read(rows.sort(order));
    };
  /** Delete a run's rows of one table after the point ($2 phase, $3 episode). */
  const deleteAfter =
    <Row extends { phase_index: number }>(
      table: (tables: RunTables) => Map<string, Row>,
      episodeOf: (row: Row) => number,
    ): Statement =>
    ([runId, phaseIndex, episode]) => {
      const tables = tablesOf(runId);
      if (tables === undefined) return wrote(0);
      const doomed = (row: Row) =>
        laterThan(Number(phaseIndex), Number(episode), row.phase_index, episodeOf(row));
      return wrote(change.removeWhere(table(tables), doomed));
    };
  /** Delete a run's phases that `doomed` picks, and (the databases' cascade) every row below them. */
  const deletePhases = (runId: unknown, doomed: (phaseIndex: number) => boolean): Outcome => {
    const tables = tablesOf(runId);
    if (tables === undefined) return wrote(0);
    const below = (row: { phase_index: number }) => doomed(row.phase_index);
    change.removeWhere(tables.episodes, below);
    change.removeWhere(tables.checkpoints, below);
    change.removeWhere(tables.metaDecisions, below);
    change.removeWhere(tables.snapshots, below);
    return wrote(change.removeWhere(tables.phases, below));
  };
  const trialsOfSweep = (sweepId: unknown): SweepTrialRow[] =>
    [...state.trials.values()]
      .filter((row) => row.sweep_id === sweepId)
      .sort(byNumbers((row) => Number(row.trial_index)));

  const episodeRows = rowsOf<EpisodeRow>(
    (tables) => tables.episodes,
    byPhaseThen((row) => row.episode),
  );
  const checkpointRows = rowsOf<CheckpointRow>(
    (tables) => tables.checkpoints,
    byPhaseThen((row) => row.checkpoint_index),
  );

  const statements: Record<string, Statement> = {
    getRun: runRow,
    lockRun: runRow,
    shareRun: runRow,
    insertRun(params) {
      const inserted = insertedRow<RunRow>('runs', params);
      if (state.runs.has(inserted.run_id)) return wrote(0);
      const row: RunRow = {
        ...inserted,
        ended_at: null,
        error: null,
        summary: null,
        lease_owner: null,
        lease_token: 0,
        lease_heartbeat_ms: null,
        lease_expires_ms: null,
        deliveries: 0,
        deliveries_settled: 0,
        delivery_owner: null,
      };
      change.put(state.runs, row.run_id, newRunTables(row));
      return wrote(1, row);
    },
    finishRun: ([runId, status, error, summary, endedAt]) =>
      updated(
        updateRun(runId, () => ({
          status: status as string,
          error: error as string | null,
          summary: summary as string | null,
          ended_at: endedAt as string,
        })),
      ),
    takeLease: ([runId, owner, token, heartbeat, expires]) =>
      updated(
        updateRun(runId, () => ({
          lease_owner: owner as string,
          lease_token: token as number,
          lease_heartbeat_ms: heartbeat as number,
          lease_expires_ms: expires as number,
        })),
      ),
    renewLease: ([runId, token, heartbeat, expires]) =>
      updated(
        updateRun(
          runId,
          () => ({ lease_heartbeat_ms: heartbeat as number, lease_expires_ms: expires as number }),
          (row) => row.lease_token === token && row.lease_owner !== null,
        ),
      ),
    releaseLease: ([runId, token]) =>
      updated(
        updateRun(
          runId,
          () => ({ lease_owner: null, lease_heartbeat_ms: null, lease_expires_ms: null }),
          (row) => row.lease_token === token,
        ),
      ),
    claimDelivery: ([runId, owner]) =>
      updated(
        updateRun(runId, (row) => ({
          deliveries: (row.deliveries ?? 0) + 1,
          delivery_owner: owner as string,
        })),
      ),
    settleDelivery: ([runId, delivery]) =>
      updated(
        updateRun(
          runId,
          () => ({ deliveries_settled: delivery as number }),
          (row) =>
            (row.deliveries_settled ?? 0) < (delivery as number) &&
            (row.deliveries ?? 0) >= (delivery as number),
        ),
      ),
    reopenRun: ([runId]) =>
      updated(
        updateRun(runId, () => ({ status: 'running', ended_at: null, error: null, summary: null })),
      ),
    listRuns([limit]) {
      const rows = [...state.runs.values()]
        .map((tables) => tables.row)
        .sort(
          (a, b) =>
            (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0) ||
            // ties by id in byte order, as SQLite compares text
            Buffer.compare(Buffer.from(b.run_id), Buffer.from(a.run_id)),
        );
      return read(limit === null || limit === undefined ? rows : rows.slice(0, Number(limit)));
    },
    insertResume(params) {
      const [runId, resumedAt, owner, phaseIndex, episode, forced, changedModules] = params as [
        string,
        string,
        string,
        number,
        number,
        boolean,
        string,
      ];
      const tables = tablesOf(runId);
      if (tables === undefined) return wrote(0);
      const resumeIndex = Math.max(0, ...tables.resumes.keys()) + 1;
      const row: ResumeRow = {
        run_id: runId,
        resume_index: resumeIndex,
        resumed_at: resumedAt,
        owner,
        phase_index: phaseIndex,
        episode,
        forced,
        changed_modules: changedModules,
      };
      change.put(tables.resumes, resumeIndex, row);
      return wrote(1, row);
    },
    resumes: ([runId]) =>
      read(
        [...(tablesOf(runId)?.resumes.values() ?? [])].sort(byNumbers((row) => row.resume_index)),
      ),
    insertRemoteComponent(params) {
      const [runId, session, phaseIndex, kind, component, service, instance, host, pid, openedAt] =
        params as [
          string,
          string,
          number,
          string,
          string,
          string,
          string,
          string | null,
          number | null,
          string,
        ];
      const tables = tablesOf(runId);
      if (tables === undefined || tables.remoteComponents.has(session)) return wrote(0);
      const openIndex =
        Math.max(0, ...[...tables.remoteComponents.values()].map((row) => row.open_index)) + 1;
      const row: RemoteComponentRow = {
        run_id: runId,
        session,
        open_index: openIndex,
        phase_index: phaseIndex,
        kind,
        component,
        service,
        instance,
        host,
        pid,
        opened_at: openedAt,
      };
      change.put(tables.remoteComponents, session, row);
      return wrote(1);
    },
    remoteComponents: ([runId]) =>
      read(
        [...(tablesOf(runId)?.remoteComponents.values() ?? [])].sort(
          byNumbers((row) => row.open_index),
        ),
      ),
    getPhase: ([runId, phaseIndex]) => read([tablesOf(runId)?.phases.get(Number(phaseIndex))]),
    phases: rowsOf<PhaseRow>(
      (tables) => tables.phases,
      byNumbers((row) => row.phase_index),
    ),
    insertPhase(params) {
      const [runId, phaseIndex, name, mode, startedAt] = params as [
        string,
        number,
        string,
        string,
        string,
      ];
      const tables = tablesOf(runId);
      if (tables === undefined || tables.phases.has(phaseIndex)) return wrote(0);
      const row: PhaseRow = {
        run_id: runId,
        phase_index: phaseIndex,
        name,
        mode,
        status: 'running',
        termination_reason: null,
        episodes: 0,
        started_at: startedAt,
        ended_at: null,
        error: null,
      };
      change.put(tables.phases, phaseIndex, row);
      return wrote(1, row);
    },
    finishPhase([runId, phaseIndex, status, reason, episodes, error, endedAt]) {
      const tables = tablesOf(runId);
      if (tables === undefined) return wrote(0);
      return updatedPhase(
        change.update(tables.phases, Number(phaseIndex), {
          status: status as string,
          termination_reason: reason as string | null,
          episodes: episodes as number,
          error: error as string | null,
          ended_at: endedAt as string,
        }),
      );
    },
    reopenPhase([runId, phaseIndex]) {
      const tables = tablesOf(runId);
      if (tables === undefined) return wrote(0);
      return updatedPhase(
        change.update(tables.phases, Number(phaseIndex), {
          status: 'running',
          termination_reason: null,
          episodes: 0,
          error: null,
          ended_at: null,
        }),
      );
    },
    insertEpisode: insertBelowPhase<EpisodeRow>(
      (tables) => tables.episodes,
      (params) => insertedRow('episodes', params),
      (row) => key(row.phase_index, row.episode),
    ),
    insertCheckpoint: insertBelowPhase<CheckpointRow>(
      (tables) => tables.checkpoints,
      (params) => insertedRow('checkpoints', params),
      (row) => key(row.phase_index, row.checkpoint_index),
    ),
    insertMetaDecision: insertBelowPhase<MetaDecisionRow>(
      (tables) => tables.metaDecisions,
      (params) => insertedRow('metaDecisions', params),
      (row) => key(row.phase_index, row.start_request),
    ),
    saveSnapshot(params) {
      const row = insertedRow<SnapshotRow>('snapshots', params);
      const tables = tablesOf(row.run_id);
      if (tables === undefined || !tables.phases.has(row.phase_index)) return wrote(0);
      // a second save at one barrier replaces the first (the databases' upsert)
      change.put(tables.snapshots, key(row.phase_index, row.episode), row);
      return wrote(1);
    },
    episodes: episodeRows,
    phaseEpisodes: episodeRows,
    episodeReturns: episodeRows,
    checkpoints: checkpointRows,
    phaseCheckpoints: checkpointRows,
    metaDecisions: rowsOf<MetaDecisionRow>(
      (tables) => tables.metaDecisions,
      byPhaseThen((row) => row.start_request),
    ),
    latestSnapshot: ([runId]) => {
      const rows = [...(tablesOf(runId)?.snapshots.values() ?? [])];
      return read(rows.sort(byPhaseThen((row) => row.episode)).slice(-1));
    },
    snapshotCount: ([runId]) => read([{ count: tablesOf(runId)?.snapshots.size ?? 0 }]),
    deleteEpisodesAfter: deleteAfter<EpisodeRow>((tables) => tables.episodes, episodeOf),
    deleteCheckpointsAfter: deleteAfter(
      (tables) => tables.checkpoints,
      (row) => row.after_episode,
    ),
    deleteMetaDecisionsAfter: deleteAfter(
      (tables) => tables.metaDecisions,
      (row) => row.first_episode,
    ),
    deleteSnapshotsAfter: deleteAfter<SnapshotRow>((tables) => tables.snapshots, episodeOf),
    deleteLaterPhases: ([runId, phaseIndex]) =>
      deletePhases(runId, (index) => index > Number(phaseIndex)),
    deleteAllPhases: ([runId]) => deletePhases(runId, () => true),
    insertSweep(params) {
      const [sweepId, uid, sweepFile, sweepFilePath, sweepState, createdAt] = params as string[];
      if (state.sweeps.has(sweepId as string)) return wrote(0);
      const row: SweepRow = {
        sweep_id: sweepId as string,
        uid: uid as string,
        sweep_file: sweepFile as string,
        sweep_file_path: sweepFilePath as string,
        status: 'running',
        state: sweepState as string,
        error: null,
        created_at: createdAt as string,
        updated_at: createdAt as string,
      };
      change.put(state.sweeps, row.sweep_id, row);
      return wrote(1, row);
    },
    saveSweep: ([sweepId, status, sweepState, error, updatedAt]) => {
      const row = change.update(state.sweeps, String(sweepId), {
        status: status as string,
        state: sweepState as string,
        error: error as string | null,
        updated_at: updatedAt as string,
      });
      return wrote(row === undefined ? 0 : 1, row);
    },
    getSweep: ([sweepId]) => read([state.sweeps.get(String(sweepId))]),
    listSweeps: () => read([...state.sweeps.values()]),
    insertTrial([sweepId, trialIndex, runId, parameters, holdAt]) {
      const row: SweepTrialRow = {
        sweep_id: sweepId as string,
        trial_index: trialIndex as number,
        run_id: runId as string,
        parameters: parameters as string,
        hold_at: holdAt as number | null,
      };
      change.put(state.trials, row.run_id, row);
      return wrote(1);
    },
    holdTrial: ([runId, holdAt]) => {
      const row = change.update(state.trials, String(runId), { hold_at: holdAt as number | null });
      return wrote(row === undefined ? 0 : 1, row === undefined ? undefined : { run_id: runId });
    },
    sweepTrials: ([sweepId]) => read(trialsOfSweep(sweepId)),
    trialOfRun: ([runId]) => read([state.trials.get(String(runId))]),
  };

  const run = (statement: string, params: Params = []): Outcome => {
    if (closed) throw new TypeError('the memory store is closed');
    const answer = statements[statement];
    if (answer === undefined)
      throw new TypeError(`the memory store has no statement '${statement}'`);
    return answer(params);
  };
  const sql = Object.fromEntries(Object.keys(statements).map((name) => [name, name]));
  return {
    sql: {
      ...sql,
      deleteAfter: [
        'deleteEpisodesAfter',
        'deleteCheckpointsAfter',
        'deleteMetaDecisionsAfter',
        'deleteSnapshotsAfter',
      ],
    } as unknown as RunSql,
    all: <Row>(statement: string, params?: Params) => run(statement, params).rows as Row[],
    get: <Row>(statement: string, params?: Params) =>
      run(statement, params).rows[0] as Row | undefined,
    run: (statement, params) => run(statement, params).changes,
    transaction: (work) => {
      if (closed) throw new TypeError('the memory store is closed');
      return change.transaction(work);
    },
    close() {
      closed = true;
    },
  };
}

function updatedPhase(row: PhaseRow | undefined): Outcome {
  return wrote(row === undefined ? 0 : 1, row);
}
