import Database from 'better-sqlite3';
import { type Clock, systemClock } from './clock.js';
import { createRunIdGenerator, type RunIdGenerator } from './runId.js';
import {
  type CheckpointRow,
  checkpointFromRow,
  type EpisodeRow,
  episodeFromRow,
  type MetaDecisionRow,
  metaDecisionFromRow,
  type PhaseRow,
  phaseFromRow,
  type RunRow,
  runFromRow,
  type SnapshotRow,
  snapshotFromRow,
} from './sqliteRows.js';
import { migrateStore } from './sqliteSchema.js';
import type { EpisodeSummary, RunStore } from './store.js';
import { encodeStoredJson } from './storedJson.js';
import { DuplicateRecordError, PhaseNotFoundError, RunNotFoundError } from './storeErrors.js';
import { requireFinite, requireInteger } from './storeRecordChecks.js';

/** What a store is opened with. */
export interface StoreOptions {
  /** Timestamps a record does not bring itself. */
  clock?: Clock;
  /** Makes the id of a run created without one. */
  newRunId?: RunIdGenerator;
}

/**
 * Open (creating and migrating if needed) a SQLite run store at `path`, or an
 * in-memory one at `':memory:'`.
 *
 * Durability: the file is in WAL mode with `synchronous = NORMAL`. A committed
 * transaction survives the process being killed (SIGKILL, a crash) the moment
 * the call that committed it returns; only an OS crash or power loss can lose
 * the last transactions, never corrupt the file.
 *
 * @example
 * ```ts
 * const store = openSqliteStore('.arena/arena.db');
 * const run = store.createRun({ uid: 'grid', seed: 42, runFile: yamlText, runFilePath: 'run.yaml' });
 * run.runId; // 'grid-20261129T200702-3fa2'
 * store.getRun(run.runId).status; // 'running'
 * ```
 */
export function openSqliteStore(path: string, options: StoreOptions = {}): RunStore {
  const clock = options.clock ?? systemClock;
  const newRunId = options.newRunId ?? createRunIdGenerator();
  const now = (): string => clock.now().toISOString();
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrateStore(db, path);
  } catch (error) {
    db.close();
    throw error;
  }

  const sql = {
    insertRun: db.prepare(
      `INSERT INTO runs (run_id, uid, seed, run_file, run_file_path, status, started_at)
       VALUES (@runId, @uid, @seed, @runFile, @runFilePath, 'running', @startedAt)`,
    ),
    finishRun: db.prepare(
      `UPDATE runs SET status = @status, error = @error, summary = @summary, ended_at = @endedAt
       WHERE run_id = @runId`,
    ),
    getRun: db.prepare<[string], RunRow>('SELECT * FROM runs WHERE run_id = ?'),
    listRuns: db.prepare<[number], RunRow>(
      'SELECT * FROM runs ORDER BY started_at DESC, run_id DESC LIMIT ?',
    ),
    insertPhase: db.prepare(
      `INSERT INTO phases (run_id, phase_index, name, mode, status, episodes, started_at)
       VALUES (@runId, @phaseIndex, @name, @mode, 'running', 0, @startedAt)`,
    ),
    finishPhase: db.prepare(
      `UPDATE phases SET status = @status, termination_reason = @terminationReason,
         episodes = @episodes, ended_at = @endedAt
       WHERE run_id = @runId AND phase_index = @phaseIndex`,
    ),
    getPhase: db.prepare<[string, number], PhaseRow>(
      'SELECT * FROM phases WHERE run_id = ? AND phase_index = ?',
    ),
    phases: db.prepare<[string], PhaseRow>(
      'SELECT * FROM phases WHERE run_id = ? ORDER BY phase_index',
    ),
    insertEpisode: db.prepare(
      `INSERT INTO episodes (run_id, phase_index, episode, mode, evaluation, episode_return, steps,
         returns_by_agent, done_reason)
       VALUES (@runId, @phaseIndex, @episode, @mode, @evaluation, @episodeReturn, @steps,
         @returnsByAgent, @doneReason)`,
    ),
    episodes: db.prepare<[string], EpisodeRow>(
      'SELECT * FROM episodes WHERE run_id = ? ORDER BY phase_index, episode',
    ),
    phaseEpisodes: db.prepare<[string, number], EpisodeRow>(
      'SELECT * FROM episodes WHERE run_id = ? AND phase_index = ? ORDER BY episode',
    ),
    episodeSummary: db.prepare<
      [string],
      { phase_index: number; evaluation: number; count: number; mean_return: number }
    >(
      `SELECT phase_index, evaluation, COUNT(*) AS count, AVG(episode_return) AS mean_return
       FROM episodes WHERE run_id = ? GROUP BY phase_index, evaluation
       ORDER BY phase_index, evaluation`,
    ),
    insertCheckpoint: db.prepare(
      `INSERT INTO checkpoints (run_id, phase_index, checkpoint_index, after_episode, outcomes,
         status, decision, error)
       VALUES (@runId, @phaseIndex, @checkpointIndex, @afterEpisode, @outcomes, @status,
         @decision, @error)`,
    ),
    checkpoints: db.prepare<[string], CheckpointRow>(
      'SELECT * FROM checkpoints WHERE run_id = ? ORDER BY phase_index, checkpoint_index',
    ),
    phaseCheckpoints: db.prepare<[string, number], CheckpointRow>(
      'SELECT * FROM checkpoints WHERE run_id = ? AND phase_index = ? ORDER BY checkpoint_index',
    ),
    insertMetaDecision: db.prepare(
      `INSERT INTO meta_decisions (run_id, phase_index, start_request, first_episode,
         environment_uid, agent_name, record)
       VALUES (@runId, @phaseIndex, @startRequest, @firstEpisode, @environmentUid, @agentName,
         @record)`,
    ),
    metaDecisions: db.prepare<[string], MetaDecisionRow>(
      'SELECT * FROM meta_decisions WHERE run_id = ? ORDER BY phase_index, start_request',
    ),
    upsertSnapshot: db.prepare(
      `INSERT INTO snapshots (run_id, phase_index, episode, created_at, state)
       VALUES (@runId, @phaseIndex, @episode, @createdAt, @state)
       ON CONFLICT (run_id, phase_index, episode)
       DO UPDATE SET created_at = excluded.created_at, state = excluded.state`,
    ),
    latestSnapshot: db.prepare<[string], SnapshotRow>(
      `SELECT * FROM snapshots WHERE run_id = ?
       ORDER BY phase_index DESC, episode DESC LIMIT 1`,
    ),
    snapshotCount: db.prepare<[string], { count: number }>(
      'SELECT COUNT(*) AS count FROM snapshots WHERE run_id = ?',
    ),
  };

  // Rows after (phaseIndex, episode) of one run; `?` order: runId, phase, phase, episode.
  const later = 'run_id = ? AND (phase_index > ? OR (phase_index = ? AND';
  const truncate = {
    episodes: db.prepare(`DELETE FROM episodes WHERE ${later} episode > ?))`),
    checkpoints: db.prepare(`DELETE FROM checkpoints WHERE ${later} after_episode > ?))`),
    metaDecisions: db.prepare(`DELETE FROM meta_decisions WHERE ${later} first_episode > ?))`),
    snapshots: db.prepare(`DELETE FROM snapshots WHERE ${later} episode > ?))`),
    phases: db.prepare('DELETE FROM phases WHERE run_id = ? AND phase_index > ?'),
    reopenPhase: db.prepare(
      `UPDATE phases SET status = 'running', termination_reason = NULL, episodes = 0,
         ended_at = NULL
       WHERE run_id = ? AND phase_index = ?`,
    ),
    reopenRun: db.prepare(
      `UPDATE runs SET status = 'running', ended_at = NULL, error = NULL, summary = NULL
       WHERE run_id = ?`,
    ),
  };

  const getRun = (runId: string) => {
    const row = sql.getRun.get(runId);
    if (row === undefined) throw new RunNotFoundError(runId);
    return runFromRow(row);
  };
  const requireRun = (runId: string): void => {
    getRun(runId);
  };
  const getPhase = (runId: string, phaseIndex: number) => {
    const row = sql.getPhase.get(runId, phaseIndex);
    if (row === undefined) {
      requireRun(runId);
      throw new PhaseNotFoundError(runId, phaseIndex);
    }
    return phaseFromRow(row);
  };

  /** Run an insert, turning key violations into the port's errors. */
  const insert = (what: string, runId: string, phaseIndex: number | null, work: () => void) => {
    try {
      work();
    } catch (error) {
      if (!(error instanceof Database.SqliteError)) throw error;
      if (error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw new DuplicateRecordError(what, { cause: error });
      }
      if (error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        requireRun(runId);
        throw new PhaseNotFoundError(runId, phaseIndex ?? -1);
      }
      throw error;
    }
  };

  return {
    createRun(run) {
      requireInteger('seed', run, Number.MIN_SAFE_INTEGER);
      const startedAt = run.startedAt ?? now();
      const runId = run.runId ?? newRunId(run.uid, new Date(startedAt));
      const record = { ...run, runId, startedAt };
      insert(`run '${runId}'`, runId, null, () => sql.insertRun.run(record));
      return getRun(runId);
    },
    finishRun(runId, outcome) {
      const changes = sql.finishRun.run({
        runId,
        status: outcome.status,
        error: outcome.error ?? null,
        summary:
          outcome.summary === undefined || outcome.summary === null
            ? null
            : encodeStoredJson(outcome.summary),
        endedAt: outcome.endedAt ?? now(),
      }).changes;
      if (changes === 0) throw new RunNotFoundError(runId);
      return getRun(runId);
    },
    startPhase(phase) {
      requireInteger('phaseIndex', phase, 0);
      const record = { ...phase, startedAt: phase.startedAt ?? now() };
      insert(`phase ${phase.phaseIndex} of run '${phase.runId}'`, phase.runId, null, () => {
        requireRun(phase.runId);
        sql.insertPhase.run(record);
      });
      return getPhase(phase.runId, phase.phaseIndex);
    },
    finishPhase(runId, phaseIndex, outcome) {
      requireInteger('episodes', outcome, 0);
      const changes = sql.finishPhase.run({
        runId,
        phaseIndex,
        status: outcome.status,
        terminationReason: outcome.terminationReason,
        episodes: outcome.episodes,
        endedAt: outcome.endedAt ?? now(),
      }).changes;
      if (changes === 0) getPhase(runId, phaseIndex);
      return getPhase(runId, phaseIndex);
    },
    recordEpisode(record) {
      requireInteger('episode', record, 1);
      requireInteger('steps', record, 0);
      requireFinite('episodeReturn', record);
      const { runId, phaseIndex, episode } = record;
      insert(`episode ${episode} of phase ${phaseIndex} of run '${runId}'`, runId, phaseIndex, () =>
        sql.insertEpisode.run({
          ...record,
          evaluation: record.evaluation ? 1 : 0,
          returnsByAgent: encodeStoredJson(record.returnsByAgent),
        }),
      );
    },
    recordCheckpoint(record) {
      requireInteger('checkpointIndex', record, 0);
      requireInteger('afterEpisode', record, 0);
      const { runId, phaseIndex, checkpointIndex } = record;
      const what = `checkpoint ${checkpointIndex} of phase ${phaseIndex} of run '${runId}'`;
      insert(what, runId, phaseIndex, () =>
        sql.insertCheckpoint.run({
          ...record,
          outcomes: encodeStoredJson(record.outcomes),
          decision: encodeStoredJson(record.decision),
          error: record.error === null ? null : encodeStoredJson(record.error),
        }),
      );
    },
    recordMetaDecision(record) {
      requireInteger('startRequest', record, 1);
      requireInteger('firstEpisode', record, 1);
      const { runId, phaseIndex, startRequest } = record;
      const what = `meta decision ${startRequest} of phase ${phaseIndex} of run '${runId}'`;
      insert(what, runId, phaseIndex, () =>
        sql.insertMetaDecision.run({ ...record, record: encodeStoredJson(record.record) }),
      );
    },
    saveSnapshot(snapshot) {
      requireInteger('episode', snapshot, 0);
      const { runId, phaseIndex } = snapshot;
      insert(`snapshot of run '${runId}'`, runId, phaseIndex, () =>
        sql.upsertSnapshot.run({
          runId,
          phaseIndex,
          episode: snapshot.episode,
          createdAt: snapshot.createdAt ?? now(),
          state: encodeStoredJson(snapshot.state),
        }),
      );
    },
    latestSnapshot(runId) {
      const row = sql.latestSnapshot.get(runId);
      if (row === undefined) {
        requireRun(runId);
        return null;
      }
      return snapshotFromRow(row);
    },
    snapshotCount(runId) {
      requireRun(runId);
      return sql.snapshotCount.get(runId)?.count ?? 0;
    },
    getRun,
    listRuns(listOptions = {}) {
      return sql.listRuns.all(listOptions.limit ?? -1).map(runFromRow);
    },
    phases(runId) {
      requireRun(runId);
      return sql.phases.all(runId).map(phaseFromRow);
    },
    episodes(runId, phaseIndex) {
      requireRun(runId);
      const rows =
        phaseIndex === undefined
          ? sql.episodes.all(runId)
          : sql.phaseEpisodes.all(runId, phaseIndex);
      return rows.map(episodeFromRow);
    },
    episodeSummary(runId): EpisodeSummary[] {
      requireRun(runId);
      return sql.episodeSummary.all(runId).map((row) => ({
        phaseIndex: row.phase_index,
        evaluation: row.evaluation === 1,
        count: row.count,
        meanReturn: row.mean_return,
      }));
    },
    checkpoints(runId, phaseIndex) {
      requireRun(runId);
      const rows =
        phaseIndex === undefined
          ? sql.checkpoints.all(runId)
          : sql.phaseCheckpoints.all(runId, phaseIndex);
      return rows.map(checkpointFromRow);
    },
    metaDecisions(runId) {
      requireRun(runId);
      return sql.metaDecisions.all(runId).map(metaDecisionFromRow);
    },
    truncateAfter(runId, point) {
      requireInteger('episode', point, 0);
      db.transaction(() => {
        // Episode 0 of a phase never started is the moment before it starts: nothing to reopen.
        if (sql.getPhase.get(runId, point.phaseIndex) === undefined) {
          requireRun(runId);
          if (point.episode > 0) throw new PhaseNotFoundError(runId, point.phaseIndex);
        }
        const after = [runId, point.phaseIndex, point.phaseIndex, point.episode] as const;
        truncate.episodes.run(...after);
        truncate.checkpoints.run(...after);
        truncate.metaDecisions.run(...after);
        truncate.snapshots.run(...after);
        truncate.phases.run(runId, point.phaseIndex);
        truncate.reopenPhase.run(runId, point.phaseIndex);
        truncate.reopenRun.run(runId);
      })();
    },
    transaction(work) {
      return db.transaction(work)();
    },
    close() {
      db.close();
    },
  };
}
