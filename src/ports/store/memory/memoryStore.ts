import { systemClock } from '../../runtime/clock.js';
import { createRunIdGenerator } from '../../runtime/runId.js';
import { summarizeEpisodes } from '../episodeSummaries.js';
import type { StoreOptions } from '../sqlite/sqliteStore.js';
import type {
  CheckpointRecord,
  EpisodeRecord,
  LeaseHolder,
  LeaseOwner,
  MetaDecisionRecord,
  PhaseRecord,
  RemoteComponentRecord,
  ResumeRecord,
  RunRecord,
  RunStatus,
  RunStore,
  SnapshotRecord,
  SweepRecord,
  SweepTrialRecord,
} from '../store.js';
import { decodeStoredJson, encodeStoredJson } from '../storedJson.js';
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

/** A record with its JSON fields kept as canonical JSON text, as a store file keeps them. */
type Stored<T, K extends keyof T> = Omit<T, K> & Record<K, string>;

interface RunRow {
  runId: string;
  uid: string;
  seed: number;
  runFile: string;
  runFilePath: string;
  runFileSha256: string | null;
  modules: string | null;
  status: RunStatus;
  startedAt: string;
  endedAt: string | null;
  error: string | null;
  summary: string | null;
  leaseOwner: string | null;
  leaseToken: number;
  leaseHeartbeatMs: number | null;
  leaseExpiresMs: number | null;
  deliveries: number;
  deliveriesSettled: number;
  deliveryOwner: string | null;
}

type EpisodeRow = Stored<EpisodeRecord, 'returnsByAgent'>;
type CheckpointRow = Omit<CheckpointRecord, 'outcomes' | 'decision' | 'error'> & {
  outcomes: string;
  decision: string;
  error: string | null;
};
type MetaDecisionRow = Stored<MetaDecisionRecord, 'record'>;
type SnapshotRow = Stored<SnapshotRecord, 'state'>;
type ResumeRow = Omit<ResumeRecord, 'changedModules'> & { changedModules: string };

/** One run and everything recorded under it, keyed as the store file's primary keys. */
interface RunTables {
  readonly run: RunRow;
  readonly phases: Map<number, PhaseRecord>;
  readonly episodes: Map<string, EpisodeRow>;
  readonly checkpoints: Map<string, CheckpointRow>;
  readonly metaDecisions: Map<string, MetaDecisionRow>;
  readonly snapshots: Map<string, SnapshotRow>;
  readonly resumes: ResumeRow[];
  /** By session, in the order they were opened. */
  readonly remoteComponents: Map<string, RemoteComponentRecord>;
}

/**
 * What handles of one memory store share: its runs, and the undo log of the
 * transaction open on it (`null` outside one).
 *
 * @internal the memory store's own state; the contract tests open several handles on one.
 */
export interface MemoryStoreState {
  readonly runs: Map<string, RunTables>;
  readonly sweeps: Map<string, Stored<SweepRecord, 'state'>>;
  /** Trials by their run's id. */
  readonly trials: Map<string, Stored<SweepTrialRecord, 'parameters'>>;
  undo: (() => void)[] | null;
}

/**
 * An empty memory store, to open handles on with `openMemoryStore`.
 *
 * @internal see `MemoryStoreState`.
 * @example
 * ```ts
 * const state = createMemoryStoreState();
 * const writer = openMemoryStore(state);
 * const reader = openMemoryStore(state, { readonly: true });
 * ```
 */
export function createMemoryStoreState(): MemoryStoreState {
  return { runs: new Map(), sweeps: new Map(), trials: new Map(), undo: null };
}

/**
 * A run store that lives in memory and is gone on `close()`, for tests of the
 * runner and for apps that keep no records. Plain JavaScript, no native
 * addon: it keeps the store contract the SQLite and PostgreSQL stores keep
 * (test/contract/runStoreContract.ts): the same ordering, errors, canonical
 * JSON round trip, leases and transactions.
 *
 * @example
 * ```ts
 * const store = createMemoryStore({ clock: fixedClock(new Date('2026-01-01T00:00:00Z')) });
 * store.createRun({ uid: 'grid', seed: 1, runFile: '', runFilePath: 'run.yaml' }).startedAt;
 * // '2026-01-01T00:00:00.000Z'
 * ```
 */
export function createMemoryStore(options: StoreOptions = {}): RunStore {
  return openMemoryStore(createMemoryStoreState(), options);
}

const key = (...parts: readonly number[]): string => parts.join(':');
const byNumbers =
  <T>(...fields: ((row: T) => number)[]) =>
  (a: T, b: T): number => {
    for (const field of fields) {
      const order = field(a) - field(b);
      if (order !== 0) return order;
    }
    return 0;
  };
/** After the point (phase, episode): a later phase, or a later episode of its phase. */
const after = (phaseIndex: number, episode: number, atPhase: number, atEpisode: number) =>
  atPhase > phaseIndex || (atPhase === phaseIndex && atEpisode > episode);

/**
 * A handle on a memory store's state (see `createMemoryStore`).
 *
 * @internal see `MemoryStoreState`.
 * @example
 * ```ts
 * const store = openMemoryStore(createMemoryStoreState(), { clock: systemClock });
 * ```
 */
export function openMemoryStore(state: MemoryStoreState, options: StoreOptions = {}): RunStore {
  const clock = options.clock ?? systemClock;
  const newRunId = options.newRunId ?? createRunIdGenerator();
  const readonly = options.readonly === true;
  let closed = false;
  const now = (): string => clock.now().toISOString();
  const open = (): void => {
    if (closed) throw new TypeError('the memory store is closed');
  };
  const writable = (what: string): void => {
    open();
    if (readonly) throw new StoreReadOnlyError(what);
  };

  // Every change notes how to undo it while a transaction is open.
  const undoing = (undo: () => void): void => {
    state.undo?.push(undo);
  };
  const put = <K, V>(map: Map<K, V>, at: K, value: V): void => {
    const had = map.has(at);
    const old = map.get(at);
    map.set(at, value);
    undoing(() => (had ? map.set(at, old as V) : map.delete(at)));
  };
  const remove = <K, V>(map: Map<K, V>, at: K): void => {
    if (!map.has(at)) return;
    const old = map.get(at) as V;
    map.delete(at);
    undoing(() => map.set(at, old));
  };
  const removeWhere = <K, V>(map: Map<K, V>, doomed: (value: V) => boolean): void => {
    for (const [at, value] of [...map]) if (doomed(value)) remove(map, at);
  };
  const update = <T extends object>(row: T, patch: Partial<T>): T => {
    const old = Object.fromEntries(
      Object.keys(patch).map((field) => [field, row[field as keyof T]]),
    ) as Partial<T>;
    Object.assign(row, patch);
    undoing(() => Object.assign(row, old));
    return row;
  };
  const transaction = <T>(work: () => T): T => {
    const outer = state.undo === null;
    const log = state.undo ?? [];
    const mark = log.length;
    state.undo = log;
    try {
      const result = work();
      if (typeof (result as { then?: unknown } | null)?.then === 'function') {
        throw new TypeError('a store transaction cannot return a promise');
      }
      return result;
    } catch (error) {
      while (log.length > mark) log.pop()?.();
      throw error;
    } finally {
      if (outer) state.undo = null;
    }
  };

  const sweepRow = (sweepId: string) => {
    const row = state.sweeps.get(sweepId);
    if (row === undefined) throw new SweepNotFoundError(sweepId);
    return row;
  };
  const tablesOf = (runId: string): RunTables => {
    open();
    const tables = state.runs.get(runId);
    if (tables === undefined) throw new RunNotFoundError(runId);
    return tables;
  };
  const phaseOf = (runId: string, phaseIndex: number): PhaseRecord => {
    const phase = tablesOf(runId).phases.get(phaseIndex);
    if (phase === undefined) throw new PhaseNotFoundError(runId, phaseIndex);
    return phase;
  };
  /** The tables a record of a phase goes to: the run's, once the phase is there. */
  const recordTables = (runId: string, phaseIndex: number): RunTables => {
    const tables = tablesOf(runId);
    if (!tables.phases.has(phaseIndex)) throw new PhaseNotFoundError(runId, phaseIndex);
    return tables;
  };
  const insert = <V>(map: Map<string, V>, at: string, value: V, what: string): void => {
    if (map.has(at)) throw new DuplicateRecordError(what);
    put(map, at, value);
  };

  const holderOf = (row: RunRow): LeaseHolder | null =>
    row.leaseOwner === null
      ? null
      : {
          owner: JSON.parse(row.leaseOwner) as LeaseOwner,
          heartbeatAt: new Date(row.leaseHeartbeatMs ?? 0).toISOString(),
          expiresAt: new Date(row.leaseExpiresMs ?? 0).toISOString(),
        };
  const runRecord = (row: RunRow): RunRecord => ({
    runId: row.runId,
    uid: row.uid,
    seed: row.seed,
    runFile: row.runFile,
    runFilePath: row.runFilePath,
    status: row.status,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    error: row.error,
    summary: row.summary === null ? null : decodeStoredJson(row.summary),
    runFileSha256: row.runFileSha256,
    modules:
      row.modules === null
        ? null
        : (decodeStoredJson(row.modules) as unknown as RunRecord['modules']),
    lease: holderOf(row),
  });
  const getRun = (runId: string): RunRecord => runRecord(tablesOf(runId).run);
  const episodes = (runId: string, phaseIndex?: number): EpisodeRecord[] =>
    [...tablesOf(runId).episodes.values()]
      .filter((row) => phaseIndex === undefined || row.phaseIndex === phaseIndex)
      .sort(
        byNumbers(
          (row) => row.phaseIndex,
          (row) => row.episode,
        ),
      )
      .map((row) => ({ ...row, returnsByAgent: decodeStoredJson(row.returnsByAgent) }));
  const reopenRun = (tables: RunTables): void => {
    update(tables.run, { status: 'running', endedAt: null, error: null, summary: null });
  };

  return {
    readonly,
    createRun(run) {
      writable('create a run');
      requireInteger('seed', run, Number.MIN_SAFE_INTEGER);
      const startedAt = run.startedAt ?? now();
      // a generated id is random in its last 4 hex digits: two runs started in one second may collide
      for (let attempt = 1; ; attempt++) {
        const runId = run.runId ?? newRunId(run.uid, new Date(startedAt));
        if (!state.runs.has(runId)) {
          put(state.runs, runId, {
            run: {
              runId,
              uid: run.uid,
              seed: run.seed,
              runFile: run.runFile,
              runFilePath: run.runFilePath,
              runFileSha256: run.runFileSha256 ?? null,
              modules:
                run.modules === undefined || run.modules === null
                  ? null
                  : encodeStoredJson(run.modules),
              status: run.status ?? 'running',
              startedAt,
              endedAt: null,
              error: null,
              summary: null,
              leaseOwner: null,
              leaseToken: 0,
              leaseHeartbeatMs: null,
              leaseExpiresMs: null,
              deliveries: 0,
              deliveriesSettled: 0,
              deliveryOwner: null,
            },
            phases: new Map(),
            episodes: new Map(),
            checkpoints: new Map(),
            metaDecisions: new Map(),
            snapshots: new Map(),
            resumes: [],
            remoteComponents: new Map(),
          });
          return getRun(runId);
        }
        if (run.runId !== undefined || attempt >= 8) {
          throw new DuplicateRecordError(`run '${runId}'`);
        }
      }
    },
    acquireLease(runId, request) {
      writable('take a lease');
      const { run } = tablesOf(runId);
      const holder = holderOf(run);
      const at = clock.now().getTime();
      const held =
        holder !== null &&
        Date.parse(holder.expiresAt) > at &&
        holder.owner.id !== request.owner.id &&
        request.takeOver?.(holder) !== true;
      if (held) throw new RunLeasedError(runId, holder, new Date(at));
      const token = run.leaseToken + 1;
      update(run, {
        leaseOwner: JSON.stringify(request.owner),
        leaseToken: token,
        leaseHeartbeatMs: at,
        leaseExpiresMs: at + request.ttlMs,
      });
      return { runId, owner: request.owner, token };
    },
    renewLease(lease, ttlMs) {
      writable('renew a lease');
      const run = state.runs.get(lease.runId)?.run;
      if (run === undefined || run.leaseOwner === null || run.leaseToken !== lease.token) {
        throw new LeaseLostError(lease.runId, run === undefined ? null : holderOf(run));
      }
      const at = clock.now().getTime();
      update(run, { leaseHeartbeatMs: at, leaseExpiresMs: at + ttlMs });
    },
    requireLease(lease) {
      const { run } = tablesOf(lease.runId);
      if (run.leaseOwner === null || run.leaseToken !== lease.token) {
        throw new LeaseLostError(lease.runId, holderOf(run));
      }
    },
    releaseLease(lease) {
      writable('release a lease');
      const run = state.runs.get(lease.runId)?.run;
      if (run === undefined || run.leaseToken !== lease.token) return;
      update(run, { leaseOwner: null, leaseHeartbeatMs: null, leaseExpiresMs: null });
    },
    claimDelivery(runId, owner) {
      writable('claim a delivery');
      const { run } = tablesOf(runId);
      update(run, { deliveries: run.deliveries + 1, deliveryOwner: JSON.stringify(owner) });
      return run.deliveries;
    },
    settleDelivery(runId, delivery) {
      writable('settle a delivery');
      requireInteger('delivery', { delivery }, 1);
      const { run } = tablesOf(runId);
      if (run.deliveriesSettled < delivery && run.deliveries >= delivery) {
        update(run, { deliveriesSettled: delivery });
      }
    },
    deliveryCount(runId) {
      const { run } = tablesOf(runId);
      return {
        claimed: run.deliveries,
        settled: run.deliveriesSettled,
        owner: run.deliveryOwner === null ? null : (JSON.parse(run.deliveryOwner) as LeaseOwner),
      };
    },
    recordResume(record) {
      writable('record a resume');
      const { resumes } = tablesOf(record.runId);
      const row: ResumeRow = {
        runId: record.runId,
        resumeIndex: resumes.length + 1,
        resumedAt: now(),
        owner: record.owner,
        phaseIndex: record.phaseIndex,
        episode: record.episode,
        forced: record.forced,
        changedModules: encodeStoredJson(record.changedModules),
      };
      resumes.push(row);
      undoing(() => resumes.pop());
      return { ...row, changedModules: decodeStoredJson(row.changedModules) as string[] };
    },
    resumes(runId) {
      return tablesOf(runId).resumes.map((row) => ({
        ...row,
        changedModules: decodeStoredJson(row.changedModules) as string[],
      }));
    },
    recordRemoteComponent(record) {
      writable('record a remote component');
      requireInteger('phaseIndex', record, 0);
      const { remoteComponents } = tablesOf(record.runId);
      if (remoteComponents.has(record.session)) return;
      put(remoteComponents, record.session, { ...record, openedAt: record.openedAt ?? now() });
    },
    remoteComponents(runId) {
      return [...tablesOf(runId).remoteComponents.values()].map((record) => ({ ...record }));
    },
    createSweep(sweep) {
      writable('create a sweep');
      const createdAt = sweep.createdAt ?? now();
      for (let attempt = 1; ; attempt++) {
        const sweepId = sweep.sweepId ?? newRunId(sweep.uid, new Date(createdAt));
        if (!state.sweeps.has(sweepId)) {
          const row = {
            sweepId,
            uid: sweep.uid,
            sweepFile: sweep.sweepFile,
            sweepFilePath: sweep.sweepFilePath,
            status: 'running' as const,
            state: encodeStoredJson(sweep.state),
            error: null,
            createdAt,
            updatedAt: createdAt,
          };
          put(state.sweeps, sweepId, row);
          return sweepRecord(row);
        }
        if (sweep.sweepId !== undefined || attempt >= 8) {
          throw new DuplicateRecordError(`sweep '${sweepId}'`);
        }
      }
    },
    saveSweep(sweepId, change) {
      writable('save a sweep');
      const row = sweepRow(sweepId);
      update(row, {
        status: change.status,
        state: encodeStoredJson(change.state),
        error: change.error ?? null,
        updatedAt: now(),
      });
      return sweepRecord(row);
    },
    getSweep(sweepId) {
      open();
      return sweepRecord(sweepRow(sweepId));
    },
    listSweeps() {
      open();
      return [...state.sweeps.values()].map(sweepRecord).sort(newestSweepFirst);
    },
    recordTrial(trial) {
      writable('record a trial');
      tablesOf(trial.runId);
      sweepRow(trial.sweepId);
      if (state.trials.has(trial.runId)) {
        throw new DuplicateRecordError(`trial of run '${trial.runId}'`);
      }
      const taken = [...state.trials.values()].some(
        (row) => row.sweepId === trial.sweepId && row.trialIndex === trial.trialIndex,
      );
      if (taken)
        throw new DuplicateRecordError(`trial ${trial.trialIndex} of sweep '${trial.sweepId}'`);
      put(state.trials, trial.runId, { ...trial, parameters: encodeStoredJson(trial.parameters) });
    },
    holdTrial(runId, holdAt) {
      writable('hold a trial');
      const row = state.trials.get(runId);
      if (row === undefined) throw new RunNotFoundError(runId);
      update(row, { holdAt });
    },
    sweepTrials(sweepId) {
      open();
      sweepRow(sweepId);
      return [...state.trials.values()]
        .filter((row) => row.sweepId === sweepId)
        .sort((a, b) => a.trialIndex - b.trialIndex)
        .map(trialRecord);
    },
    trialOfRun(runId) {
      open();
      const row = state.trials.get(runId);
      return row === undefined ? null : trialRecord(row);
    },
    finishRun(runId, outcome) {
      writable('finish a run');
      const { run } = tablesOf(runId);
      update(run, {
        status: outcome.status,
        error: outcome.error ?? null,
        summary:
          outcome.summary === undefined || outcome.summary === null
            ? null
            : encodeStoredJson(outcome.summary),
        endedAt: outcome.endedAt ?? now(),
      });
      return runRecord(run);
    },
    startPhase(phase) {
      writable('start a phase');
      requireInteger('phaseIndex', phase, 0);
      const { phases } = tablesOf(phase.runId);
      if (phases.has(phase.phaseIndex)) {
        throw new DuplicateRecordError(`phase ${phase.phaseIndex} of run '${phase.runId}'`);
      }
      const record: PhaseRecord = {
        runId: phase.runId,
        phaseIndex: phase.phaseIndex,
        name: phase.name,
        mode: phase.mode,
        status: 'running',
        terminationReason: null,
        episodes: 0,
        error: null,
        startedAt: phase.startedAt ?? now(),
        endedAt: null,
      };
      put(phases, phase.phaseIndex, record);
      return { ...record };
    },
    finishPhase(runId, phaseIndex, outcome) {
      writable('finish a phase');
      requireInteger('episodes', outcome, 0);
      const phase = update(phaseOf(runId, phaseIndex), {
        status: outcome.status,
        terminationReason: outcome.terminationReason,
        episodes: outcome.episodes,
        error: outcome.error ?? null,
        endedAt: outcome.endedAt ?? now(),
      });
      return { ...phase };
    },
    recordEpisode(record) {
      writable('record an episode');
      requireInteger('episode', record, 1);
      requireInteger('steps', record, 0);
      requireFinite('episodeReturn', record);
      const { runId, phaseIndex, episode } = record;
      insert(
        recordTables(runId, phaseIndex).episodes,
        key(phaseIndex, episode),
        { ...record, returnsByAgent: encodeStoredJson(record.returnsByAgent) },
        `episode ${episode} of phase ${phaseIndex} of run '${runId}'`,
      );
    },
    recordCheckpoint(record) {
      writable('record a checkpoint');
      requireInteger('checkpointIndex', record, 0);
      requireInteger('afterEpisode', record, 0);
      const { runId, phaseIndex, checkpointIndex } = record;
      insert(
        recordTables(runId, phaseIndex).checkpoints,
        key(phaseIndex, checkpointIndex),
        {
          ...record,
          outcomes: encodeStoredJson(record.outcomes),
          decision: encodeStoredJson(record.decision),
          error: record.error === null ? null : encodeStoredJson(record.error),
        },
        `checkpoint ${checkpointIndex} of phase ${phaseIndex} of run '${runId}'`,
      );
    },
    recordMetaDecision(record) {
      writable('record a meta decision');
      requireInteger('startRequest', record, 1);
      requireInteger('firstEpisode', record, 1);
      const { runId, phaseIndex, startRequest } = record;
      insert(
        recordTables(runId, phaseIndex).metaDecisions,
        key(phaseIndex, startRequest),
        { ...record, record: encodeStoredJson(record.record) },
        `meta decision ${startRequest} of phase ${phaseIndex} of run '${runId}'`,
      );
    },
    saveSnapshot(snapshot) {
      writable('save a snapshot');
      requireInteger('episode', snapshot, 0);
      const { runId, phaseIndex, episode } = snapshot;
      put(recordTables(runId, phaseIndex).snapshots, key(phaseIndex, episode), {
        runId,
        phaseIndex,
        episode,
        createdAt: snapshot.createdAt ?? now(),
        state: encodeStoredJson(snapshot.state),
      });
    },
    latestSnapshot(runId) {
      let latest: SnapshotRow | null = null;
      for (const row of tablesOf(runId).snapshots.values()) {
        if (
          latest === null ||
          after(latest.phaseIndex, latest.episode, row.phaseIndex, row.episode)
        )
          latest = row;
      }
      return latest === null ? null : { ...latest, state: decodeStoredJson(latest.state) };
    },
    snapshotCount(runId) {
      return tablesOf(runId).snapshots.size;
    },
    getRun,
    listRuns(listOptions = {}) {
      open();
      const limit = listOptions.limit ?? -1;
      const rows = [...state.runs.values()]
        .map((tables) => tables.run)
        .sort(
          (a, b) =>
            (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0) ||
            // ties by id in byte order, as SQLite compares text
            Buffer.compare(Buffer.from(b.runId), Buffer.from(a.runId)),
        );
      return (limit < 0 ? rows : rows.slice(0, limit)).map(runRecord);
    },
    phases(runId) {
      return [...tablesOf(runId).phases.values()]
        .sort(byNumbers((phase) => phase.phaseIndex))
        .map((phase) => ({ ...phase }));
    },
    episodes,
    episodeSummary: (runId) => summarizeEpisodes(episodes(runId)),
    checkpoints(runId, phaseIndex) {
      return [...tablesOf(runId).checkpoints.values()]
        .filter((row) => phaseIndex === undefined || row.phaseIndex === phaseIndex)
        .sort(
          byNumbers(
            (row) => row.phaseIndex,
            (row) => row.checkpointIndex,
          ),
        )
        .map((row) => ({
          ...row,
          outcomes: decodeStoredJson(row.outcomes),
          decision: decodeStoredJson(row.decision),
          error: row.error === null ? null : decodeStoredJson(row.error),
        }));
    },
    metaDecisions(runId) {
      return [...tablesOf(runId).metaDecisions.values()]
        .sort(
          byNumbers(
            (row) => row.phaseIndex,
            (row) => row.startRequest,
          ),
        )
        .map((row) => ({ ...row, record: decodeStoredJson(row.record) }));
    },
    truncateAfter(runId, point) {
      writable('rewind a run');
      requireInteger('episode', point, 0);
      transaction(() => {
        const tables = tablesOf(runId);
        const phase = tables.phases.get(point.phaseIndex);
        // Episode 0 of a phase never started is the moment before it starts: nothing to reopen.
        if (phase === undefined && point.episode > 0) {
          throw new PhaseNotFoundError(runId, point.phaseIndex);
        }
        const later = (phaseIndex: number, episode: number) =>
          after(point.phaseIndex, point.episode, phaseIndex, episode);
        removeWhere(tables.episodes, (row) => later(row.phaseIndex, row.episode));
        removeWhere(tables.checkpoints, (row) => later(row.phaseIndex, row.afterEpisode));
        removeWhere(tables.metaDecisions, (row) => later(row.phaseIndex, row.firstEpisode));
        removeWhere(tables.snapshots, (row) => later(row.phaseIndex, row.episode));
        removeWhere(tables.phases, (row) => row.phaseIndex > point.phaseIndex);
        if (phase !== undefined) {
          update(phase, {
            status: 'running',
            terminationReason: null,
            episodes: 0,
            error: null,
            endedAt: null,
          });
        }
        reopenRun(tables);
      });
    },
    rewindToStart(runId) {
      writable('rewind a run');
      transaction(() => {
        const tables = tablesOf(runId);
        for (const map of [
          tables.phases,
          tables.episodes,
          tables.checkpoints,
          tables.metaDecisions,
          tables.snapshots,
        ] as Map<unknown, unknown>[]) {
          removeWhere(map, () => true);
        }
        reopenRun(tables);
      });
    },
    transaction(work) {
      open();
      return transaction(work);
    },
    close() {
      closed = true;
    },
  };
}

function sweepRecord(row: Stored<SweepRecord, 'state'>): SweepRecord {
  return { ...row, state: decodeStoredJson(row.state) };
}

function trialRecord(row: Stored<SweepTrialRecord, 'parameters'>): SweepTrialRecord {
  return { ...row, parameters: decodeStoredJson(row.parameters) };
}
