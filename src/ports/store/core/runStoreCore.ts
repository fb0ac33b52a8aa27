import type { Clock } from '../../runtime/clock.js';
import type { RunIdGenerator } from '../../runtime/runId.js';
import { summarizeEpisodes } from '../episodeSummaries.js';
import type {
  Lease,
  LeaseHolder,
  LeaseRequest,
  RemoteComponentRecord,
  RunStore,
} from '../store.js';
import { encodeStoredJson } from '../storedJson.js';
import {
  DuplicateRecordError,
  LeaseLostError,
  PhaseNotFoundError,
  RunLeasedError,
  RunNotFoundError,
  StoreReadOnlyError,
  SweepNotFoundError,
} from '../storeErrors.js';
import { requireFinite, requireInteger } from '../storeRecordChecks.js';
import { newestSweepFirst } from '../sweepOrder.js';
import {
  checkpointFromRow,
  deliveryCountFromRow,
  episodeFromRow,
  episodeReturnFromRow,
  leaseHolderFromRow,
  metaDecisionFromRow,
  type PhaseRow,
  phaseFromRow,
  type RemoteComponentRow,
  type ResumeRow,
  type RunRow,
  remoteComponentFromRow,
  resumeFromRow,
  runFromRow,
  type SnapshotRow,
  type SweepRow,
  type SweepTrialRow,
  snapshotFromRow,
  sweepFromRow,
  sweepTrialFromRow,
} from './runRows.js';
import type { RunStoreDialect } from './runStoreDialect.js';
import { sharedRunSql } from './runStoreSql.js';

/** What a run store is, beside its database: who may write, its clock, its run ids. */
export interface RunStoreCoreOptions {
  readonly readonly: boolean;
  readonly clock: Clock;
  readonly newRunId: RunIdGenerator;
}

/** How many fresh ids `createRun` tries before a collision is an error. */
const idAttempts = 8;

/**
 * The run store over one database: the port's rules (leases and their
 * fencing, duplicate and missing records, rewinding to a barrier, read-only
 * refusals) written once, and the SQL to carry them out supplied by the
 * dialect. Every adapter (`openSqliteStore`, `openPostgresStore`,
 * `openMemoryStore`) is this function over its own dialect.
 *
 * @internal the store adapters' own core.
 * @example
 * ```ts
 * const dialect = { ...sqliteConnection(db), sql: sqliteRunSql };
 * const store = runStoreOver(dialect, { readonly: false, clock: systemClock, newRunId });
 * store.createRun({ uid: 'grid', seed: 42, runFile: yamlText, runFilePath: '/w/run.yaml' }).status;
 * // 'running'
 * ```
 */
export function runStoreOver(db: RunStoreDialect, options: RunStoreCoreOptions): RunStore {
  const { readonly, clock, newRunId } = options;
  const sql = { ...sharedRunSql, ...db.sql };
  const now = (): string => clock.now().toISOString();
  const nowMs = (): number => clock.now().getTime();
  const writable = (what: string): void => {
    if (readonly) throw new StoreReadOnlyError(what);
  };

  const runRow = (runId: string, query: string = sql.getRun): RunRow => {
    const row = db.get<RunRow>(query, [runId]);
    if (row === undefined) throw new RunNotFoundError(runId);
    return row;
  };
  /**
   * Throw `RunLeasedError` when another live owner holds the run's lease.
   * `takeOver` is asked once per holder: `approved` is the lease token it
   * already gave up on, so the check inside the transaction does not ask again.
   */
  const refuseHeldLease = (
    runId: string,
    row: RunRow,
    request: LeaseRequest,
    approved: number | null = null,
  ): number | null => {
    const holder = leaseHolderFromRow(row);
    if (holder === null || holder.owner.id === request.owner.id) return null;
    const at = nowMs();
    if (Date.parse(holder.expiresAt) <= at || row.lease_token === approved) return null;
    if (request.takeOver?.(holder) !== true) throw new RunLeasedError(runId, holder, new Date(at));
    return row.lease_token ?? null;
  };
  const requireRun = (runId: string): void => {
    runRow(runId);
  };
  const currentHolder = (runId: string): LeaseHolder | null => {
    const row = db.get<RunRow>(sql.getRun, [runId]);
    return row === undefined ? null : leaseHolderFromRow(row);
  };
  const getPhase = (runId: string, phaseIndex: number) => {
    const row = db.get<PhaseRow>(sql.getPhase, [runId, phaseIndex]);
    if (row === undefined) {
      requireRun(runId);
      throw new PhaseNotFoundError(runId, phaseIndex);
    }
    return phaseFromRow(row);
  };
  /** A run's rows of one query, as records: the run must exist, and may have none. */
  const recordsOf = <Row, Record>(
    runId: string,
    query: string,
    params: readonly unknown[],
    fromRow: (row: Row) => Record,
  ): Record[] => {
    requireRun(runId);
    return db.all<Row>(query, params).map((row) => fromRow(row));
  };
  /** A record below phases that wrote nothing: its run or phase is missing, or its key is taken. */
  const refused = (what: string, runId: string, phaseIndex: number): never => {
    getPhase(runId, phaseIndex);
    throw new DuplicateRecordError(what);
  };
  /**
   * Insert under the given id, or under a fresh one: a generated id is random in
   * its last 4 hex digits, so two started in one second may collide and another is tried.
   */
  const insertWithFreshId = <T>(
    what: string,
    given: string | undefined,
    uid: string,
    at: string,
    insert: (id: string) => T | undefined,
  ): T => {
    for (let attempt = 1; ; attempt++) {
      const id = given ?? newRunId(uid, new Date(at));
      const inserted = insert(id);
      if (inserted !== undefined) return inserted;
      if (given !== undefined || attempt >= idAttempts) {
        throw new DuplicateRecordError(`${what} '${id}'`);
      }
    }
  };

  return {
    readonly,
    createRun(run) {
      writable('create a run');
      requireInteger('seed', run, Number.MIN_SAFE_INTEGER);
      const startedAt = run.startedAt ?? now();
      const modules =
        run.modules === undefined || run.modules === null ? null : encodeStoredJson(run.modules);
      return insertWithFreshId('run', run.runId, run.uid, startedAt, (runId) => {
        const created = db.get<RunRow>(sql.insertRun, [
          runId,
          run.uid,
          run.seed,
          run.runFile,
          run.runFilePath,
          run.runFileSha256 ?? null,
          modules,
          run.status ?? 'running',
          startedAt,
        ]);
        return created === undefined ? undefined : runFromRow(created);
      });
    },
    acquireLease(runId, request) {
      writable('take a lease');
      // a plain read first: a live holder is named at once, not after queueing behind its writes
      const approved = refuseHeldLease(runId, runRow(runId), request);
      return db.transaction((): Lease => {
        const row = runRow(runId, sql.lockRun);
        refuseHeldLease(runId, row, request, approved);
        const at = nowMs();
        // the token grows with every acquisition: a holder that lost the lease is fenced off by it
        const token = (row.lease_token ?? 0) + 1;
        db.run(sql.takeLease, [
          runId,
          JSON.stringify(request.owner),
          token,
          at,
          at + request.ttlMs,
        ]);
        return { runId, owner: request.owner, token };
      });
    },
    renewLease(held, ttlMs) {
      writable('renew a lease');
      const at = nowMs();
      const renewed = db.run(sql.renewLease, [held.runId, held.token, at, at + ttlMs]);
      if (renewed === 0) throw new LeaseLostError(held.runId, currentHolder(held.runId));
    },
    requireLease(held) {
      if (sql.presentLease !== undefined) db.get(sql.presentLease, [held.runId, held.token]);
      const row = runRow(held.runId, sql.shareRun);
      if (row.lease_owner === null || row.lease_token !== held.token) {
        throw new LeaseLostError(held.runId, leaseHolderFromRow(row));
      }
    },
    releaseLease(held) {
      writable('release a lease');
      db.run(sql.releaseLease, [held.runId, held.token]);
    },
    claimDelivery(runId, owner) {
      writable('claim a delivery');
      const row = db.get<{ deliveries: number }>(sql.claimDelivery, [runId, JSON.stringify(owner)]);
      if (row === undefined) throw new RunNotFoundError(runId);
      return Number(row.deliveries);
    },
    settleDelivery(runId, delivery) {
      writable('settle a delivery');
      requireInteger('delivery', { delivery }, 1);
      if (db.run(sql.settleDelivery, [runId, delivery]) === 0) requireRun(runId);
    },
    deliveryCount: (runId) => deliveryCountFromRow(runRow(runId)),
    recordResume(record) {
      writable('record a resume');
      return db.transaction(() => {
        runRow(record.runId, sql.lockRun);
        const row = db.get<ResumeRow>(sql.insertResume, [
          record.runId,
          now(),
          record.owner,
          record.phaseIndex,
          record.episode,
          record.forced,
          encodeStoredJson(record.changedModules),
        ]);
        return resumeFromRow(row as ResumeRow);
      });
    },
    resumes: (runId) => recordsOf(runId, sql.resumes, [runId], resumeFromRow),
    recordRemoteComponent(record) {
      writable('record a remote component');
      requireInteger('phaseIndex', record, 0);
      const inserted = db.run(sql.insertRemoteComponent, [
        record.runId,
        record.session,
        record.phaseIndex,
        record.kind,
        record.component,
        record.service,
        record.instance,
        record.host,
        record.pid,
        record.openedAt ?? now(),
      ]);
      // nothing written: the session is recorded already, or the run is missing
      if (inserted === 0) requireRun(record.runId);
    },
    remoteComponents: (runId) =>
      recordsOf<RemoteComponentRow, RemoteComponentRecord>(
        runId,
        sql.remoteComponents,
        [runId],
        remoteComponentFromRow,
      ),
    finishRun(runId, outcome) {
      writable('finish a run');
      const summary =
        outcome.summary === undefined || outcome.summary === null
          ? null
          : encodeStoredJson(outcome.summary);
      const row = db.get<RunRow>(sql.finishRun, [
        runId,
        outcome.status,
        outcome.error ?? null,
        summary,
        outcome.endedAt ?? now(),
      ]);
      if (row === undefined) throw new RunNotFoundError(runId);
      return runFromRow(row);
    },
    startPhase(phase) {
      writable('start a phase');
      requireInteger('phaseIndex', phase, 0);
      const { runId, phaseIndex } = phase;
      const row = db.get<PhaseRow>(sql.insertPhase, [
        runId,
        phaseIndex,
        phase.name,
        phase.mode,
        phase.startedAt ?? now(),
      ]);
      if (row !== undefined) return phaseFromRow(row);
      requireRun(runId);
      throw new DuplicateRecordError(`phase ${phaseIndex} of run '${runId}'`);
    },
    finishPhase(runId, phaseIndex, outcome) {
      writable('finish a phase');
      requireInteger('episodes', outcome, 0);
      const row = db.get<PhaseRow>(sql.finishPhase, [
        runId,
        phaseIndex,
        outcome.status,
        outcome.terminationReason,
        outcome.episodes,
        outcome.error ?? null,
        outcome.endedAt ?? now(),
      ]);
      return row === undefined ? getPhase(runId, phaseIndex) : phaseFromRow(row);
    },
    recordEpisode(record) {
      writable('record an episode');
      requireInteger('episode', record, 1);
      requireInteger('steps', record, 0);
      requireFinite('episodeReturn', record);
      const { runId, phaseIndex, episode } = record;
      const inserted = db.run(sql.insertEpisode, [
        runId,
        phaseIndex,
        episode,
        record.mode,
        record.evaluation,
        record.episodeReturn,
        record.steps,
        encodeStoredJson(record.returnsByAgent),
        record.doneReason,
      ]);
      if (inserted === 0) {
        refused(`episode ${episode} of phase ${phaseIndex} of run '${runId}'`, runId, phaseIndex);
      }
    },
    recordCheckpoint(record) {
      writable('record a checkpoint');
      requireInteger('checkpointIndex', record, 0);
      requireInteger('afterEpisode', record, 0);
      const { runId, phaseIndex, checkpointIndex } = record;
      const inserted = db.run(sql.insertCheckpoint, [
        runId,
        phaseIndex,
        checkpointIndex,
        record.afterEpisode,
        encodeStoredJson(record.outcomes),
        record.status,
        encodeStoredJson(record.decision),
        record.error === null ? null : encodeStoredJson(record.error),
      ]);
      if (inserted === 0) {
        const what = `checkpoint ${checkpointIndex} of phase ${phaseIndex} of run '${runId}'`;
        refused(what, runId, phaseIndex);
      }
    },
    recordMetaDecision(record) {
      writable('record a meta decision');
      requireInteger('startRequest', record, 1);
      requireInteger('firstEpisode', record, 1);
      const { runId, phaseIndex, startRequest } = record;
      const inserted = db.run(sql.insertMetaDecision, [
        runId,
        phaseIndex,
        startRequest,
        record.firstEpisode,
        record.environmentUid,
        record.agentName,
        encodeStoredJson(record.record),
      ]);
      if (inserted === 0) {
        const what = `meta decision ${startRequest} of phase ${phaseIndex} of run '${runId}'`;
        refused(what, runId, phaseIndex);
      }
    },
    saveSnapshot(snapshot) {
      writable('save a snapshot');
      requireInteger('episode', snapshot, 0);
      const { runId, phaseIndex } = snapshot;
      const saved = db.run(sql.saveSnapshot, [
        runId,
        phaseIndex,
        snapshot.episode,
        snapshot.createdAt ?? now(),
        encodeStoredJson(snapshot.state),
      ]);
      // a second save at one barrier replaces the first: only a missing phase writes nothing
      if (saved === 0) getPhase(runId, phaseIndex);
    },
    latestSnapshot(runId) {
      const row = db.get<SnapshotRow>(sql.latestSnapshot, [runId]);
      if (row === undefined) {
        requireRun(runId);
        return null;
      }
      return snapshotFromRow(row);
    },
    snapshotCount(runId) {
      requireRun(runId);
      return db.get<{ count: number }>(sql.snapshotCount, [runId])?.count ?? 0;
    },
    getRun(runId) {
      return runFromRow(runRow(runId));
    },
    createSweep(sweep) {
      writable('create a sweep');
      const createdAt = sweep.createdAt ?? now();
      return insertWithFreshId('sweep', sweep.sweepId, sweep.uid, createdAt, (sweepId) => {
        const created = db.get<SweepRow>(sql.insertSweep, [
          sweepId,
          sweep.uid,
          sweep.sweepFile,
          sweep.sweepFilePath,
          encodeStoredJson(sweep.state),
          createdAt,
        ]);
        return created === undefined ? undefined : sweepFromRow(created);
      });
    },
    saveSweep(sweepId, update) {
      writable('save a sweep');
      const row = db.get<SweepRow>(sql.saveSweep, [
        sweepId,
        update.status,
        encodeStoredJson(update.state),
        update.error ?? null,
        now(),
      ]);
      if (row === undefined) throw new SweepNotFoundError(sweepId);
      return sweepFromRow(row);
    },
    getSweep(sweepId) {
      const row = db.get<SweepRow>(sql.getSweep, [sweepId]);
      if (row === undefined) throw new SweepNotFoundError(sweepId);
      return sweepFromRow(row);
    },
    listSweeps() {
      // sorted here, not by each database's collation: newest first, ties by id in code-unit order
      return db.all<SweepRow>(sql.listSweeps, []).map(sweepFromRow).sort(newestSweepFirst);
    },
    recordTrial(trial) {
      writable('record a trial');
      requireRun(trial.runId);
      if (db.get<SweepRow>(sql.getSweep, [trial.sweepId]) === undefined) {
        throw new SweepNotFoundError(trial.sweepId);
      }
      if (db.get<SweepTrialRow>(sql.trialOfRun, [trial.runId]) !== undefined) {
        throw new DuplicateRecordError(`trial of run '${trial.runId}'`);
      }
      const taken = db
        .all<SweepTrialRow>(sql.sweepTrials, [trial.sweepId])
        .some((row) => Number(row.trial_index) === trial.trialIndex);
      if (taken)
        throw new DuplicateRecordError(`trial ${trial.trialIndex} of sweep '${trial.sweepId}'`);
      db.run(sql.insertTrial, [
        trial.sweepId,
        trial.trialIndex,
        trial.runId,
        encodeStoredJson(trial.parameters),
        trial.holdAt,
      ]);
    },
    holdTrial(runId, holdAt) {
      writable('hold a trial');
      if (db.get<{ run_id: string }>(sql.holdTrial, [runId, holdAt]) === undefined) {
        throw new RunNotFoundError(runId);
      }
    },
    sweepTrials(sweepId) {
      if (db.get<SweepRow>(sql.getSweep, [sweepId]) === undefined) {
        throw new SweepNotFoundError(sweepId);
      }
      return db.all<SweepTrialRow>(sql.sweepTrials, [sweepId]).map(sweepTrialFromRow);
    },
    trialOfRun(runId) {
      const row = db.get<SweepTrialRow>(sql.trialOfRun, [runId]);
      return row === undefined ? null : sweepTrialFromRow(row);
    },
    listRuns(listOptions = {}) {
      return db.all<RunRow>(sql.listRuns, [listOptions.limit ?? null]).map(runFromRow);
    },
    phases: (runId) => recordsOf(runId, sql.phases, [runId], phaseFromRow),
    episodes: (runId, phaseIndex) =>
      phaseIndex === undefined
        ? recordsOf(runId, sql.episodes, [runId], episodeFromRow)
        : recordsOf(runId, sql.phaseEpisodes, [runId, phaseIndex], episodeFromRow),
    episodeSummary: (runId) =>
      summarizeEpisodes(recordsOf(runId, sql.episodeReturns, [runId], episodeReturnFromRow)),
    checkpoints: (runId, phaseIndex) =>
      phaseIndex === undefined
        ? recordsOf(runId, sql.checkpoints, [runId], checkpointFromRow)
        : recordsOf(runId, sql.phaseCheckpoints, [runId, phaseIndex], checkpointFromRow),
    metaDecisions: (runId) => recordsOf(runId, sql.metaDecisions, [runId], metaDecisionFromRow),
    truncateAfter(runId, point) {
      writable('rewind a run');
      requireInteger('episode', point, 0);
      db.transaction(() => {
        runRow(runId, sql.lockRun);
        const phase = [runId, point.phaseIndex] as const;
        // Episode 0 of a phase never started is the moment before it starts: nothing to reopen.
        if (point.episode > 0 && db.get(sql.getPhase, phase) === undefined) {
          throw new PhaseNotFoundError(runId, point.phaseIndex);
        }
        for (const statement of sql.deleteAfter) {
          db.run(statement, [runId, point.phaseIndex, point.episode]);
        }
        db.run(sql.deleteLaterPhases, phase);
        db.run(sql.reopenPhase, phase);
        db.run(sql.reopenRun, [runId]);
      });
    },
    rewindToStart(runId) {
      writable('rewind a run');
      db.transaction(() => {
        runRow(runId, sql.lockRun);
        db.run(sql.deleteAllPhases, [runId]);
        db.run(sql.reopenRun, [runId]);
      });
    },
    transaction(work) {
      return db.transaction(work);
    },
    close() {
      db.close();
    },
  };
}
