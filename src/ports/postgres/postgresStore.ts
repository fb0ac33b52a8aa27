import { type Clock, systemClock } from '../clock.js';
import { createRunIdGenerator, type RunIdGenerator } from '../runId.js';
import type { Lease, LeaseHolder, RunStore } from '../store.js';
import {
  type CheckpointRow,
  checkpointFromRow,
  type EpisodeRow,
  type EpisodeSummaryRow,
  episodeFromRow,
  episodeSummaryFromRow,
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
} from '../storeCore/runRows.js';
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
import { openPostgresConnection, type PostgresOpenOptions } from './postgresOpen.js';
import { parsePostgresUri } from './postgresUri.js';

/** What a PostgreSQL store is opened with: the SQLite store's options, plus how long connecting may take. */
export interface PostgresStoreOptions extends PostgresOpenOptions {
  clock?: Clock;
  newRunId?: RunIdGenerator;
}

// Rows after (phaseIndex, episode) of one run: $1 run, $2 phase, $3 episode.
const later = 'run_id = $1 AND (phase_index > $2 OR (phase_index = $2 AND';
const phaseExists = 'EXISTS (SELECT 1 FROM phases WHERE run_id = $1 AND phase_index = $2)';

/**
 * Open (creating and migrating if needed) a run store in a PostgreSQL
 * database: `postgres://user[:password]@host[:port]/database`. It behaves as
 * the SQLite store does, method for method: the same records, ordering and
 * errors, and equal JSON values read back equal.
 *
 * Each store handle has one dedicated connection, in a worker thread; every
 * call blocks until PostgreSQL has answered, so the port stays synchronous
 * and `transaction(work)` is BEGIN … COMMIT on that connection (nested ones
 * are savepoints). Writers that SQLite serialises with its write lock lock
 * the run's row here (`SELECT … FOR UPDATE`: lease, resume, truncate,
 * rewind), and a fenced write (`requireLease` in a transaction) holds the
 * row `FOR SHARE`, so a lease cannot change hands until it commits.
 *
 * @example
 * ```ts
 * const store = openPostgresStore('postgres://arena@127.0.0.1:5432/arena');
 * const run = store.createRun({ uid: 'grid', seed: 42, runFile: yamlText, runFilePath: '/w/run.yaml' });
 * store.getRun(run.runId).status; // 'running'
 * store.close();
 * ```
 */
export function openPostgresStore(uri: string, options: PostgresStoreOptions = {}): RunStore {
  const { config, display } = parsePostgresUri(uri, options.connectTimeoutMs);
  const clock = options.clock ?? systemClock;
  const newRunId = options.newRunId ?? createRunIdGenerator();
  const now = (): string => clock.now().toISOString();
  const nowMs = (): number => clock.now().getTime();
  const readonly = options.readonly === true;
  const connection = openPostgresConnection(display, config, options);
  const rows = <Row>(sql: string, params: readonly unknown[] = []): Row[] =>
    connection.query<Row>(sql, params).rows;
  const changes = (sql: string, params: readonly unknown[]): number =>
    connection.query(sql, params).rowCount;
  const writable = (what: string): void => {
    if (readonly) throw new StoreReadOnlyError(what);
  };

  let depth = 0;
  /** BEGIN … COMMIT at the outside, a savepoint inside another transaction (as better-sqlite3 nests). */
  const transaction = <T>(work: () => T): T => {
    const savepoint = `arena_${depth}`;
    connection.query(depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
    depth++;
    try {
      const result = work();
      connection.query(depth === 1 ? 'COMMIT' : `RELEASE SAVEPOINT ${savepoint}`);
      return result;
    } catch (error) {
      try {
        connection.query(
          depth === 1
            ? 'ROLLBACK'
            : `ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}`,
        );
      } catch {
        // a lost connection: the server rolls the transaction back itself
      }
      throw error;
    } finally {
      depth--;
    }
  };

  const runRow = (runId: string, lock = ''): RunRow | undefined =>
    rows<RunRow>(`SELECT * FROM runs WHERE run_id = $1 ${lock}`, [runId])[0];
  const getRun = (runId: string) => {
    const row = runRow(runId);
    if (row === undefined) throw new RunNotFoundError(runId);
    return runFromRow(row);
  };
  const requireRun = (runId: string): void => {
    getRun(runId);
  };
  /** Lock the run's row for the rest of the transaction: what SQLite's write lock gives. */
  const lockRun = (runId: string): RunRow => {
    const row = runRow(runId, 'FOR UPDATE');
    if (row === undefined) throw new RunNotFoundError(runId);
    return row;
  };
  const currentHolder = (runId: string): LeaseHolder | null => {
    const row = runRow(runId);
    return row === undefined ? null : leaseHolderFromRow(row);
  };
  const getPhase = (runId: string, phaseIndex: number) => {
    const row = rows<PhaseRow>('SELECT * FROM phases WHERE run_id = $1 AND phase_index = $2', [
      runId,
      phaseIndex,
    ])[0];
    if (row === undefined) {
      requireRun(runId);
      throw new PhaseNotFoundError(runId, phaseIndex);
    }
    return phaseFromRow(row);
  };
  /**
   * An insert into a table below phases wrote nothing: its key exists, or its
   * phase does not. Inserts never raise, because a failed statement would
   * abort the caller's whole transaction, where SQLite fails only the statement.
   */
  const nothingInserted = (what: string, runId: string, phaseIndex: number): never => {
    getPhase(runId, phaseIndex);
    throw new DuplicateRecordError(what);
  };

  return {
    readonly,
    createRun(run) {
      writable('create a run');
      requireInteger('seed', run, Number.MIN_SAFE_INTEGER);
      const startedAt = run.startedAt ?? now();
      const modules =
        run.modules === undefined || run.modules === null ? null : encodeStoredJson(run.modules);
      // a generated id is random in its last 4 hex digits: two runs started in one second may collide
      for (let attempt = 1; ; attempt++) {
        const runId = run.runId ?? newRunId(run.uid, new Date(startedAt));
        const created = rows<RunRow>(
          `INSERT INTO runs (run_id, uid, seed, run_file, run_file_path, run_file_sha256, modules,
             status, started_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $9, $8)
           ON CONFLICT (run_id) DO NOTHING RETURNING *`,
          [
            runId,
            run.uid,
            run.seed,
            run.runFile,
            run.runFilePath,
            run.runFileSha256 ?? null,
            modules,
            startedAt,
            run.status ?? 'running',
          ],
        )[0];
        if (created !== undefined) return runFromRow(created);
        if (run.runId !== undefined || attempt >= 8) {
          throw new DuplicateRecordError(`run '${runId}'`);
        }
      }
    },
    acquireLease(runId, request) {
      writable('take a lease');
      return transaction((): Lease => {
        const row = lockRun(runId);
        const holder = leaseHolderFromRow(row);
        const at = nowMs();
        const held =
          holder !== null &&
          Date.parse(holder.expiresAt) > at &&
          holder.owner.id !== request.owner.id &&
          request.takeOver?.(holder) !== true;
        if (held) throw new RunLeasedError(runId, holder, new Date(at));
        const token = (row.lease_token ?? 0) + 1;
        changes(
          `UPDATE runs SET lease_owner = $2, lease_token = $3, lease_heartbeat_ms = $4,
             lease_expires_ms = $5 WHERE run_id = $1`,
          [runId, JSON.stringify(request.owner), token, at, at + request.ttlMs],
        );
        return { runId, owner: request.owner, token };
      });
    },
    renewLease(held, ttlMs) {
      writable('renew a lease');
      const at = nowMs();
      const renewed = changes(
        `UPDATE runs SET lease_heartbeat_ms = $3, lease_expires_ms = $4
           WHERE run_id = $1 AND lease_token = $2 AND lease_owner IS NOT NULL`,
        [held.runId, held.token, at, at + ttlMs],
      );
      if (renewed === 0) throw new LeaseLostError(held.runId, currentHolder(held.runId));
    },
    requireLease(held) {
      // FOR SHARE: inside a transaction, no one takes the lease over until this one commits
      const row = runRow(held.runId, readonly ? '' : 'FOR SHARE');
      if (row === undefined) throw new RunNotFoundError(held.runId);
      if (row.lease_owner === null || row.lease_token !== held.token) {
        throw new LeaseLostError(held.runId, leaseHolderFromRow(row));
      }
    },
    releaseLease(held) {
      writable('release a lease');
      changes(
        `UPDATE runs SET lease_owner = NULL, lease_heartbeat_ms = NULL, lease_expires_ms = NULL
           WHERE run_id = $1 AND lease_token = $2`,
        [held.runId, held.token],
      );
    },
    recordResume(record) {
      writable('record a resume');
      return transaction(() => {
        lockRun(record.runId);
        const row = rows<ResumeRow>(
          `INSERT INTO resumes (run_id, resume_index, resumed_at, owner, phase_index, episode,
             forced, changed_modules)
           SELECT $1, COALESCE(MAX(resume_index), 0) + 1, $2, $3, $4, $5, $6, $7
           FROM resumes WHERE run_id = $1 RETURNING *`,
          [
            record.runId,
            now(),
            record.owner,
            record.phaseIndex,
            record.episode,
            record.forced,
            encodeStoredJson(record.changedModules),
          ],
        )[0] as ResumeRow;
        return resumeFromRow(row);
      });
    },
    resumes(runId) {
      requireRun(runId);
      return rows<ResumeRow>('SELECT * FROM resumes WHERE run_id = $1 ORDER BY resume_index', [
        runId,
      ]).map(resumeFromRow);
    },
    finishRun(runId, outcome) {
      writable('finish a run');
      const summary =
        outcome.summary === undefined || outcome.summary === null
          ? null
          : encodeStoredJson(outcome.summary);
      const row = rows<RunRow>(
        `UPDATE runs SET status = $2, error = $3, summary = $4, ended_at = $5
           WHERE run_id = $1 RETURNING *`,
        [runId, outcome.status, outcome.error ?? null, summary, outcome.endedAt ?? now()],
      )[0];
      if (row === undefined) throw new RunNotFoundError(runId);
      return runFromRow(row);
    },
    startPhase(phase) {
      writable('start a phase');
      requireInteger('phaseIndex', phase, 0);
      const row = rows<PhaseRow>(
        `INSERT INTO phases (run_id, phase_index, name, mode, status, episodes, started_at)
           SELECT $1, $2::integer, $3, $4, 'running', 0, $5
           WHERE EXISTS (SELECT 1 FROM runs WHERE run_id = $1)
           ON CONFLICT (run_id, phase_index) DO NOTHING RETURNING *`,
        [phase.runId, phase.phaseIndex, phase.name, phase.mode, phase.startedAt ?? now()],
      )[0];
      if (row !== undefined) return phaseFromRow(row);
      requireRun(phase.runId);
      throw new DuplicateRecordError(`phase ${phase.phaseIndex} of run '${phase.runId}'`);
    },
    finishPhase(runId, phaseIndex, outcome) {
      writable('finish a phase');
      requireInteger('episodes', outcome, 0);
      const row = rows<PhaseRow>(
        `UPDATE phases SET status = $3, termination_reason = $4, episodes = $5, error = $6,
             ended_at = $7
           WHERE run_id = $1 AND phase_index = $2 RETURNING *`,
        [
          runId,
          phaseIndex,
          outcome.status,
          outcome.terminationReason,
          outcome.episodes,
          outcome.error ?? null,
          outcome.endedAt ?? now(),
        ],
      )[0];
      return row === undefined ? getPhase(runId, phaseIndex) : phaseFromRow(row);
    },
    recordEpisode(record) {
      writable('record an episode');
      requireInteger('episode', record, 1);
      requireInteger('steps', record, 0);
      requireFinite('episodeReturn', record);
      const { runId, phaseIndex, episode } = record;
      const inserted = changes(
        `INSERT INTO episodes (run_id, phase_index, episode, mode, evaluation, episode_return, steps,
             returns_by_agent, done_reason)
           SELECT $1, $2::integer, $3::integer, $4, $5::boolean, $6::double precision, $7::integer, $8, $9
           WHERE ${phaseExists} ON CONFLICT DO NOTHING`,
        [
          runId,
          phaseIndex,
          episode,
          record.mode,
          record.evaluation,
          record.episodeReturn,
          record.steps,
          encodeStoredJson(record.returnsByAgent),
          record.doneReason,
        ],
      );
      if (inserted === 0) {
        nothingInserted(
          `episode ${episode} of phase ${phaseIndex} of run '${runId}'`,
          runId,
          phaseIndex,
        );
      }
    },
    recordCheckpoint(record) {
      writable('record a checkpoint');
      requireInteger('checkpointIndex', record, 0);
      requireInteger('afterEpisode', record, 0);
      const { runId, phaseIndex, checkpointIndex } = record;
      const inserted = changes(
        `INSERT INTO checkpoints (run_id, phase_index, checkpoint_index, after_episode, outcomes,
             status, decision, error)
           SELECT $1, $2::integer, $3::integer, $4::integer, $5, $6, $7, $8
           WHERE ${phaseExists} ON CONFLICT DO NOTHING`,
        [
          runId,
          phaseIndex,
          checkpointIndex,
          record.afterEpisode,
          encodeStoredJson(record.outcomes),
          record.status,
          encodeStoredJson(record.decision),
          record.error === null ? null : encodeStoredJson(record.error),
        ],
      );
      if (inserted === 0) {
        const what = `checkpoint ${checkpointIndex} of phase ${phaseIndex} of run '${runId}'`;
        nothingInserted(what, runId, phaseIndex);
      }
    },
    recordMetaDecision(record) {
      writable('record a meta decision');
      requireInteger('startRequest', record, 1);
      requireInteger('firstEpisode', record, 1);
      const { runId, phaseIndex, startRequest } = record;
      const inserted = changes(
        `INSERT INTO meta_decisions (run_id, phase_index, start_request, first_episode,
             environment_uid, agent_name, record)
           SELECT $1, $2::integer, $3::integer, $4::integer, $5, $6, $7
           WHERE ${phaseExists} ON CONFLICT DO NOTHING`,
        [
          runId,
          phaseIndex,
          startRequest,
          record.firstEpisode,
          record.environmentUid,
          record.agentName,
          encodeStoredJson(record.record),
        ],
      );
      if (inserted === 0) {
        const what = `meta decision ${startRequest} of phase ${phaseIndex} of run '${runId}'`;
        nothingInserted(what, runId, phaseIndex);
      }
    },
    saveSnapshot(snapshot) {
      writable('save a snapshot');
      requireInteger('episode', snapshot, 0);
      const { runId, phaseIndex } = snapshot;
      const saved = changes(
        `INSERT INTO snapshots (run_id, phase_index, episode, created_at, state)
           SELECT $1, $2::integer, $3::integer, $4, $5 WHERE ${phaseExists}
           ON CONFLICT (run_id, phase_index, episode)
           DO UPDATE SET created_at = excluded.created_at, state = excluded.state`,
        [
          runId,
          phaseIndex,
          snapshot.episode,
          snapshot.createdAt ?? now(),
          encodeStoredJson(snapshot.state),
        ],
      );
      if (saved === 0) getPhase(runId, phaseIndex);
    },
    latestSnapshot(runId) {
      const row = rows<SnapshotRow>(
        `SELECT * FROM snapshots WHERE run_id = $1
           ORDER BY phase_index DESC, episode DESC LIMIT 1`,
        [runId],
      )[0];
      if (row === undefined) {
        requireRun(runId);
        return null;
      }
      return snapshotFromRow(row);
    },
    snapshotCount(runId) {
      requireRun(runId);
      return (
        rows<{ count: number }>('SELECT COUNT(*) AS count FROM snapshots WHERE run_id = $1', [
          runId,
        ])[0]?.count ?? 0
      );
    },
    getRun,
    listRuns(listOptions = {}) {
      // COLLATE "C": byte order, as SQLite sorts, whatever the database's locale
      return rows<RunRow>(
        `SELECT * FROM runs ORDER BY started_at COLLATE "C" DESC, run_id COLLATE "C" DESC LIMIT $1`,
        [listOptions.limit ?? null],
      ).map(runFromRow);
    },
    phases(runId) {
      requireRun(runId);
      return rows<PhaseRow>('SELECT * FROM phases WHERE run_id = $1 ORDER BY phase_index', [
        runId,
      ]).map(phaseFromRow);
    },
    episodes(runId, phaseIndex) {
      requireRun(runId);
      const found =
        phaseIndex === undefined
          ? rows<EpisodeRow>(
              'SELECT * FROM episodes WHERE run_id = $1 ORDER BY phase_index, episode',
              [runId],
            )
          : rows<EpisodeRow>(
              'SELECT * FROM episodes WHERE run_id = $1 AND phase_index = $2 ORDER BY episode',
              [runId, phaseIndex],
            );
      return found.map(episodeFromRow);
    },
    episodeSummary(runId) {
      requireRun(runId);
      return rows<EpisodeSummaryRow>(
        `SELECT phase_index, evaluation, COUNT(*) AS count, AVG(episode_return) AS mean_return
           FROM episodes WHERE run_id = $1 GROUP BY phase_index, evaluation
           ORDER BY phase_index, evaluation`,
        [runId],
      ).map(episodeSummaryFromRow);
    },
    checkpoints(runId, phaseIndex) {
      requireRun(runId);
      const found =
        phaseIndex === undefined
          ? rows<CheckpointRow>(
              'SELECT * FROM checkpoints WHERE run_id = $1 ORDER BY phase_index, checkpoint_index',
              [runId],
            )
          : rows<CheckpointRow>(
              'SELECT * FROM checkpoints WHERE run_id = $1 AND phase_index = $2 ORDER BY checkpoint_index',
              [runId, phaseIndex],
            );
      return found.map(checkpointFromRow);
    },
    metaDecisions(runId) {
      requireRun(runId);
      return rows<MetaDecisionRow>(
        'SELECT * FROM meta_decisions WHERE run_id = $1 ORDER BY phase_index, start_request',
        [runId],
      ).map(metaDecisionFromRow);
    },
    truncateAfter(runId, point) {
      writable('rewind a run');
      requireInteger('episode', point, 0);
      transaction(() => {
        lockRun(runId);
        const phase = [runId, point.phaseIndex] as const;
        const started = rows('SELECT 1 FROM phases WHERE run_id = $1 AND phase_index = $2', phase);
        // Episode 0 of a phase never started is the moment before it starts: nothing to reopen.
        if (started.length === 0 && point.episode > 0) {
          throw new PhaseNotFoundError(runId, point.phaseIndex);
        }
        const after = [runId, point.phaseIndex, point.episode] as const;
        changes(`DELETE FROM episodes WHERE ${later} episode > $3))`, after);
        changes(`DELETE FROM checkpoints WHERE ${later} after_episode > $3))`, after);
        changes(`DELETE FROM meta_decisions WHERE ${later} first_episode > $3))`, after);
        changes(`DELETE FROM snapshots WHERE ${later} episode > $3))`, after);
        changes('DELETE FROM phases WHERE run_id = $1 AND phase_index > $2', phase);
        changes(
          `UPDATE phases SET status = 'running', termination_reason = NULL, episodes = 0,
               error = NULL, ended_at = NULL
             WHERE run_id = $1 AND phase_index = $2`,
          phase,
        );
        reopenRun(runId);
      });
    },
    rewindToStart(runId) {
      writable('rewind a run');
      transaction(() => {
        lockRun(runId);
        // every table below phases cascades from it
        changes('DELETE FROM phases WHERE run_id = $1', [runId]);
        reopenRun(runId);
      });
    },
    transaction,
    close() {
      connection.close();
    },
  };

  function reopenRun(runId: string): void {
    changes(
      `UPDATE runs SET status = 'running', ended_at = NULL, error = NULL, summary = NULL
         WHERE run_id = $1`,
      [runId],
    );
  }
}
