import type Database from 'better-sqlite3';
import type { EpisodeSummary, Lease, LeaseHolder, RunStore } from '../store.js';
import { encodeStoredJson } from '../storedJson.js';
import {
  DuplicateRecordError,
  LeaseLostError,
  PhaseNotFoundError,
  RunLeasedError,
  RunNotFoundError,
  StoreReadOnlyError,
} from '../storeErrors.js';
import { requireFinite, requireInteger } from '../storeRecordChecks.js';
import { sqliteDriver } from './sqliteDriver.js';
import { openSqliteStoreParts } from './sqliteOpen.js';
import {
  type CheckpointRow,
  checkpointFromRow,
  type EpisodeRow,
  episodeFromRow,
  leaseHolderFromRow,
  type MetaDecisionRow,
  metaDecisionFromRow,
  type PhaseRow,
  phaseFromRow,
  type ResumeRow,
  type RunRow,
  resumeFromRow,
  runFromRow,
  type SnapshotRow,
  snapshotFromRow,
} from './sqliteRows.js';
import { storeMigrations, storeVersion } from './sqliteSchema.js';
import type { SqliteStoreOptions } from './sqliteStoreOptions.js';

/** What a store is opened with. */
export type StoreOptions = SqliteStoreOptions;

/**
 * Open (creating and migrating if needed) a SQLite run store at `path`, or an
 * in-memory one at `':memory:'`.
 *
 * Durability: the file is in WAL mode with `synchronous = NORMAL`. A committed
 * transaction survives the process being killed (SIGKILL, a crash) the moment
 * the call that committed it returns; only an OS crash or power loss can lose
 * the last transactions, never corrupt the file.
 *
 * Concurrency: many processes may write one file. Every write transaction
 * takes the write lock up front (`BEGIN IMMEDIATE`) and waits up to
 * `busyTimeoutMs` for it, so writers queue instead of failing; readers never
 * wait for writers.
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
  const { db, clock, now, newRunId, readonly } = openSqliteStoreParts(path, options);
  // a read-only file of an older schema version lacks the newer tables and columns
  const current = storeVersion(db) >= storeMigrations.length;
  const writable = (what: string): void => {
    if (readonly) throw new StoreReadOnlyError(what);
  };
  const nowMs = (): number => clock.now().getTime();
  /** Statements are prepared on first use, so a read-only older file never prepares what it cannot run. */
  const prepared = <T extends Record<string, string>>(texts: T) => {
    const cache = new Map<string, Database.Statement>();
    return new Proxy({} as { [K in keyof T]: Database.Statement }, {
      get(_target, key: string) {
        let statement = cache.get(key);
        if (statement === undefined) {
          const text = texts[key];
          if (text === undefined) throw new Error(`no statement ${key}`);
          statement = db.prepare(text);
          cache.set(key, statement);
        }
        return statement;
      },
    });
  };

  const lease = prepared({
    get: `SELECT * FROM runs WHERE run_id = ?`,
    take: `UPDATE runs SET lease_owner = @owner, lease_token = @token,
             lease_heartbeat_ms = @now, lease_expires_ms = @expires WHERE run_id = @runId`,
    renew: `UPDATE runs SET lease_heartbeat_ms = @now, lease_expires_ms = @expires
              WHERE run_id = @runId AND lease_token = @token AND lease_owner IS NOT NULL`,
    release: `UPDATE runs SET lease_owner = NULL, lease_heartbeat_ms = NULL, lease_expires_ms = NULL
                WHERE run_id = @runId AND lease_token = @token`,
    insertResume: `INSERT INTO resumes (run_id, resume_index, resumed_at, owner, phase_index, episode,
                     forced, changed_modules)
                   SELECT @runId, COALESCE(MAX(resume_index), 0) + 1, @resumedAt, @owner, @phaseIndex,
                     @episode, @forced, @changedModules FROM resumes WHERE run_id = @runId`,
    lastResume: `SELECT * FROM resumes WHERE run_id = ? ORDER BY resume_index DESC LIMIT 1`,
    resumes: `SELECT * FROM resumes WHERE run_id = ? ORDER BY resume_index`,
  });

  const write = prepared({
    insertRun: `INSERT INTO runs (run_id, uid, seed, run_file, run_file_path, run_file_sha256, modules,
         status, started_at)
       VALUES (@runId, @uid, @seed, @runFile, @runFilePath, @runFileSha256, @modules, @status,
         @startedAt)`,
    finishRun: `UPDATE runs SET status = @status, error = @error, summary = @summary, ended_at = @endedAt
       WHERE run_id = @runId`,
    insertPhase: `INSERT INTO phases (run_id, phase_index, name, mode, status, episodes, started_at)
       VALUES (@runId, @phaseIndex, @name, @mode, 'running', 0, @startedAt)`,
    finishPhase: `UPDATE phases SET status = @status, termination_reason = @terminationReason,
         episodes = @episodes, error = @error, ended_at = @endedAt
       WHERE run_id = @runId AND phase_index = @phaseIndex`,
    insertEpisode: `INSERT INTO episodes (run_id, phase_index, episode, mode, evaluation, episode_return, steps,
         returns_by_agent, done_reason)
       VALUES (@runId, @phaseIndex, @episode, @mode, @evaluation, @episodeReturn, @steps,
         @returnsByAgent, @doneReason)`,
    insertCheckpoint: `INSERT INTO checkpoints (run_id, phase_index, checkpoint_index, after_episode, outcomes,
         status, decision, error)
       VALUES (@runId, @phaseIndex, @checkpointIndex, @afterEpisode, @outcomes, @status,
         @decision, @error)`,
    insertMetaDecision: `INSERT INTO meta_decisions (run_id, phase_index, start_request, first_episode,
         environment_uid, agent_name, record)
       VALUES (@runId, @phaseIndex, @startRequest, @firstEpisode, @environmentUid, @agentName,
         @record)`,
    upsertSnapshot: `INSERT INTO snapshots (run_id, phase_index, episode, created_at, state)
       VALUES (@runId, @phaseIndex, @episode, @createdAt, @state)
       ON CONFLICT (run_id, phase_index, episode)
       DO UPDATE SET created_at = excluded.created_at, state = excluded.state`,
  });

  const sql = {
    getRun: db.prepare<[string], RunRow>('SELECT * FROM runs WHERE run_id = ?'),
    listRuns: db.prepare<[number], RunRow>(
      'SELECT * FROM runs ORDER BY started_at DESC, run_id DESC LIMIT ?',
    ),
    getPhase: db.prepare<[string, number], PhaseRow>(
      'SELECT * FROM phases WHERE run_id = ? AND phase_index = ?',
    ),
    phases: db.prepare<[string], PhaseRow>(
      'SELECT * FROM phases WHERE run_id = ? ORDER BY phase_index',
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
    checkpoints: db.prepare<[string], CheckpointRow>(
      'SELECT * FROM checkpoints WHERE run_id = ? ORDER BY phase_index, checkpoint_index',
    ),
    phaseCheckpoints: db.prepare<[string, number], CheckpointRow>(
      'SELECT * FROM checkpoints WHERE run_id = ? AND phase_index = ? ORDER BY checkpoint_index',
    ),
    metaDecisions: db.prepare<[string], MetaDecisionRow>(
      'SELECT * FROM meta_decisions WHERE run_id = ? ORDER BY phase_index, start_request',
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
  const truncate = prepared({
    episodes: `DELETE FROM episodes WHERE ${later} episode > ?))`,
    checkpoints: `DELETE FROM checkpoints WHERE ${later} after_episode > ?))`,
    metaDecisions: `DELETE FROM meta_decisions WHERE ${later} first_episode > ?))`,
    snapshots: `DELETE FROM snapshots WHERE ${later} episode > ?))`,
    phases: 'DELETE FROM phases WHERE run_id = ? AND phase_index > ?',
    allPhases: 'DELETE FROM phases WHERE run_id = ?',
    reopenPhase: `UPDATE phases SET status = 'running', termination_reason = NULL, episodes = 0,
         error = NULL, ended_at = NULL
       WHERE run_id = ? AND phase_index = ?`,
    reopenRun: `UPDATE runs SET status = 'running', ended_at = NULL, error = NULL, summary = NULL
       WHERE run_id = ?`,
  });

  const getRun = (runId: string) => {
    const row = sql.getRun.get(runId);
    if (row === undefined) throw new RunNotFoundError(runId);
    return runFromRow(row);
  };
  const requireRun = (runId: string): void => {
    getRun(runId);
  };
  const currentHolder = (runId: string): LeaseHolder | null => {
    const row = sql.getRun.get(runId);
    return row === undefined ? null : leaseHolderFromRow(row);
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
      if (!(error instanceof sqliteDriver().SqliteError)) throw error;
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
    readonly,
    createRun(run) {
      writable('create a run');
      requireInteger('seed', run, Number.MIN_SAFE_INTEGER);
      const startedAt = run.startedAt ?? now();
      const record = {
        uid: run.uid,
        seed: run.seed,
        runFile: run.runFile,
        runFilePath: run.runFilePath,
        runFileSha256: run.runFileSha256 ?? null,
        modules:
          run.modules === undefined || run.modules === null ? null : encodeStoredJson(run.modules),
        status: run.status ?? 'running',
        startedAt,
      };
      // a generated id is random in its last 4 hex digits: two runs started in one second may collide
      for (let attempt = 1; ; attempt++) {
        const runId = run.runId ?? newRunId(run.uid, new Date(startedAt));
        try {
          insert(`run '${runId}'`, runId, null, () => write.insertRun.run({ ...record, runId }));
          return getRun(runId);
        } catch (error) {
          if (!(error instanceof DuplicateRecordError) || run.runId !== undefined || attempt >= 8) {
            throw error;
          }
        }
      }
    },
    acquireLease(runId, request) {
      writable('take a lease');
      return db
        .transaction((): Lease => {
          const row = lease.get.get(runId) as RunRow | undefined;
          if (row === undefined) throw new RunNotFoundError(runId);
          const holder = leaseHolderFromRow(row);
          const at = nowMs();
          const held =
            holder !== null &&
            Date.parse(holder.expiresAt) > at &&
            holder.owner.id !== request.owner.id &&
            request.takeOver?.(holder) !== true;
          if (held) throw new RunLeasedError(runId, holder, new Date(at));
          const token = (row.lease_token ?? 0) + 1;
          lease.take.run({
            runId,
            owner: JSON.stringify(request.owner),
            token,
            now: at,
            expires: at + request.ttlMs,
          });
          return { runId, owner: request.owner, token };
        })
        .immediate();
    },
    renewLease(held, ttlMs) {
      writable('renew a lease');
      const at = nowMs();
      const changes = lease.renew.run({
        runId: held.runId,
        token: held.token,
        now: at,
        expires: at + ttlMs,
      }).changes;
      if (changes === 0) throw new LeaseLostError(held.runId, currentHolder(held.runId));
    },
    requireLease(held) {
      const row = lease.get.get(held.runId) as RunRow | undefined;
      if (row === undefined) throw new RunNotFoundError(held.runId);
      if (row.lease_owner === null || row.lease_token !== held.token) {
        throw new LeaseLostError(held.runId, leaseHolderFromRow(row));
      }
    },
    releaseLease(held) {
      writable('release a lease');
      lease.release.run({ runId: held.runId, token: held.token });
    },
    recordResume(record) {
      writable('record a resume');
      requireRun(record.runId);
      lease.insertResume.run({
        runId: record.runId,
        resumedAt: now(),
        owner: record.owner,
        phaseIndex: record.phaseIndex,
        episode: record.episode,
        forced: record.forced ? 1 : 0,
        changedModules: encodeStoredJson(record.changedModules),
      });
      return resumeFromRow(lease.lastResume.get(record.runId) as ResumeRow);
    },
    resumes(runId) {
      requireRun(runId);
      if (!current) return [];
      return (lease.resumes.all(runId) as ResumeRow[]).map(resumeFromRow);
    },
    finishRun(runId, outcome) {
      writable('finish a run');
      const changes = write.finishRun.run({
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
      writable('start a phase');
      requireInteger('phaseIndex', phase, 0);
      const record = { ...phase, startedAt: phase.startedAt ?? now() };
      insert(`phase ${phase.phaseIndex} of run '${phase.runId}'`, phase.runId, null, () => {
        requireRun(phase.runId);
        write.insertPhase.run(record);
      });
      return getPhase(phase.runId, phase.phaseIndex);
    },
    finishPhase(runId, phaseIndex, outcome) {
      writable('finish a phase');
      requireInteger('episodes', outcome, 0);
      const changes = write.finishPhase.run({
        runId,
        phaseIndex,
        status: outcome.status,
        terminationReason: outcome.terminationReason,
        episodes: outcome.episodes,
        error: outcome.error ?? null,
        endedAt: outcome.endedAt ?? now(),
      }).changes;
      if (changes === 0) getPhase(runId, phaseIndex);
      return getPhase(runId, phaseIndex);
    },
    recordEpisode(record) {
      writable('record an episode');
      requireInteger('episode', record, 1);
      requireInteger('steps', record, 0);
      requireFinite('episodeReturn', record);
      const { runId, phaseIndex, episode } = record;
      insert(`episode ${episode} of phase ${phaseIndex} of run '${runId}'`, runId, phaseIndex, () =>
        write.insertEpisode.run({
          ...record,
          evaluation: record.evaluation ? 1 : 0,
          returnsByAgent: encodeStoredJson(record.returnsByAgent),
        }),
      );
    },
    recordCheckpoint(record) {
      writable('record a checkpoint');
      requireInteger('checkpointIndex', record, 0);
      requireInteger('afterEpisode', record, 0);
      const { runId, phaseIndex, checkpointIndex } = record;
      const what = `checkpoint ${checkpointIndex} of phase ${phaseIndex} of run '${runId}'`;
      insert(what, runId, phaseIndex, () =>
        write.insertCheckpoint.run({
          ...record,
          outcomes: encodeStoredJson(record.outcomes),
          decision: encodeStoredJson(record.decision),
          error: record.error === null ? null : encodeStoredJson(record.error),
        }),
      );
    },
    recordMetaDecision(record) {
      writable('record a meta decision');
      requireInteger('startRequest', record, 1);
      requireInteger('firstEpisode', record, 1);
      const { runId, phaseIndex, startRequest } = record;
      const what = `meta decision ${startRequest} of phase ${phaseIndex} of run '${runId}'`;
      insert(what, runId, phaseIndex, () =>
        write.insertMetaDecision.run({ ...record, record: encodeStoredJson(record.record) }),
      );
    },
    saveSnapshot(snapshot) {
      writable('save a snapshot');
      requireInteger('episode', snapshot, 0);
      const { runId, phaseIndex } = snapshot;
      insert(`snapshot of run '${runId}'`, runId, phaseIndex, () =>
        write.upsertSnapshot.run({
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
      writable('rewind a run');
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
      }).immediate();
    },
    rewindToStart(runId) {
      writable('rewind a run');
      db.transaction(() => {
        requireRun(runId);
        // every table below phases cascades from it
        truncate.allPhases.run(runId);
        truncate.reopenRun.run(runId);
      }).immediate();
    },
    transaction(work) {
      // IMMEDIATE: take the write lock before reading, so a concurrent writer makes us wait, never fail
      return db.transaction(work).immediate();
    },
    close() {
      db.close();
    },
  };
}
