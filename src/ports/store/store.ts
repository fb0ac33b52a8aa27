import type { JsonValue } from '../../domain/shared/json.js';

/**
 * The run store port: what a run leaves behind. Runs, their phases, episodes,
 * evaluation checkpoints, meta decisions and resume snapshots, written by the
 * experiment runner and read by `arena runs`, `arena show` and `--resume`.
 *
 * Timestamps are ISO 8601 strings (`2026-11-29T20:07:02.000Z`); JSON fields are
 * stored as canonical JSON, so equal values always read back equal.
 */

/** How a run ended, `running` while it has not, or `queued` while no worker has taken it (`arena submit`). */
export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** How a phase ended, or `running` while it has not. */
export type PhaseStatus = 'running' | 'done' | 'failed' | 'cancelled';

/** Whether a phase or episode trains or tests. */
export type PhaseMode = 'train' | 'test';

/** What the termination machine did with a checkpoint. */
export type CheckpointStatus = 'accepted' | 'ignored' | 'rejected';

/** One run of one run file. */
export interface RunRecord {
  /** `<uid>-<yyyymmddThhmmss>-<4 hex>`: sorts by uid, then start time. */
  readonly runId: string;
  /** The run file's `uid`. */
  readonly uid: string;
  /** The run file's `seed`. */
  readonly seed: number;
  /** The run file's YAML text, exactly as read. */
  readonly runFile: string;
  /** Where the run file was read from: an absolute path, so a resume works from any folder. */
  readonly runFilePath: string;
  /** sha256 (hex) of `runFile`; `null` for runs stored before arena recorded it. */
  readonly runFileSha256: string | null;
  /** The user module files the run loaded, with their content hashes; `null` before arena recorded them. */
  readonly modules: readonly ModuleFingerprint[] | null;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly endedAt: string | null;
  /** The error message of a failed run. */
  readonly error: string | null;
  /** The runner's closing summary. */
  readonly summary: JsonValue | null;
  /** Who holds the run's lease now, or `null` when nobody does. */
  readonly lease: LeaseHolder | null;
}

/** A user module file a run loaded (`./my-env.js:MyEnvironment`), and its content hash. */
export interface ModuleFingerprint {
  /** The absolute path of the file. */
  readonly file: string;
  /** sha256 (hex) of the file's bytes. */
  readonly sha256: string;
}

/** Who runs a run: a process on a host, or a named worker (`arena worker --name W`). */
export interface LeaseOwner {
  /** Unique for one process's lifetime, e.g. `pid 4242 on lab-1 (3fa2c1)`. */
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  /** The worker's name, when a worker runs the run: `arena runs` shows `running on W`. */
  readonly worker?: string;
}

/** The lease a store holds on a run, as anyone reading the store sees it. */
export interface LeaseHolder {
  readonly owner: LeaseOwner;
  /** When the holder last renewed it (ISO 8601). */
  readonly heartbeatAt: string;
  /** When it lapses unless renewed (ISO 8601). */
  readonly expiresAt: string;
}

/**
 * A held lease: only the process holding it writes the run's records. The
 * token grows with every acquisition, so a holder that lost its lease (it
 * stalled past the expiry and another process took over) is fenced off: its
 * writes fail with `LeaseLostError` instead of mixing with the new holder's.
 */
export interface Lease {
  readonly runId: string;
  readonly owner: LeaseOwner;
  readonly token: number;
}

/** How to take a lease. */
export interface LeaseRequest {
  readonly owner: LeaseOwner;
  /** How long the lease lasts without a renewal. */
  readonly ttlMs: number;
  /**
   * Whether an unexpired lease of another owner may be taken over anyway,
   * e.g. because its process is known to be gone. Defaults to never.
   */
  readonly takeOver?: (holder: LeaseHolder) => boolean;
}

/**
 * A run's deliveries to workers, as the store counts them: a worker claims
 * one (`claimDelivery`) before it starts or resumes the run, and settles it
 * (`settleDelivery`) when it ended the delivery itself, whatever the run's
 * outcome. A claimed delivery never settled is one whose worker died while
 * running it.
 */
export interface DeliveryCount {
  /** Deliveries that started or resumed the run on a worker. */
  readonly claimed: number;
  /** The latest of them that its worker ended itself; 0 when none did. */
  readonly settled: number;
  /** Who claimed the latest delivery; `null` before the first. */
  readonly owner: LeaseOwner | null;
}

/** One `--resume` of a run, as the store keeps it. */
export interface ResumeRecord {
  readonly runId: string;
  /** 1-based count of resumes of the run. */
  readonly resumeIndex: number;
  readonly resumedAt: string;
  /** `LeaseOwner.id` of the process that resumed it. */
  readonly owner: string;
  /** The resume point: just after this episode of this phase. */
  readonly phaseIndex: number;
  readonly episode: number;
  /** Resumed with `--force` although user modules had changed. */
  readonly forced: boolean;
  /** The module files whose content differed from the run's start (only with `forced`). */
  readonly changedModules: readonly string[];
}

/**
 * Which instance of which service served one remote component (`nats:<service>`)
 * of a run: one record per session, kept through resumes (a resumed run opens
 * fresh sessions, so each instance that served the run is listed).
 */
export interface RemoteComponentRecord {
  readonly runId: string;
  readonly phaseIndex: number;
  /** `environment`, `brain`, `muscle` or `objective`. */
  readonly kind: string;
  /** The environment's uid or the agent's name. */
  readonly component: string;
  readonly service: string;
  /** The session's id, one per component object the run made. */
  readonly session: string;
  /** The instance that opened the session: the only one whose replies the run took. */
  readonly instance: string;
  /** Where the instance said it runs (`null` when it did not say). */
  readonly host: string | null;
  readonly pid: number | null;
  readonly openedAt: string;
}

/** What `recordRemoteComponent` needs; `openedAt` defaults to the store's clock. */
export type NewRemoteComponent = Omit<RemoteComponentRecord, 'openedAt'> & {
  readonly openedAt?: string;
};

/** What `createRun` needs; the id and start time default to the store's generator and clock. */
export interface NewRun {
  readonly uid: string;
  readonly seed: number;
  readonly runFile: string;
  readonly runFilePath: string;
  readonly runFileSha256?: string | null;
  readonly modules?: readonly ModuleFingerprint[] | null;
  readonly runId?: string;
  readonly startedAt?: string;
  /** `queued` for a run submitted to workers (a worker's start turns it `running`); default `running`. */
  readonly status?: 'running' | 'queued';
}

/** How a run ended, given to `finishRun`. */
export interface RunOutcome {
  readonly status: Exclude<RunStatus, 'running' | 'queued'>;
  readonly error?: string | null;
  readonly summary?: JsonValue | null;
  /** Defaults to the store's clock. */
  readonly endedAt?: string;
}

/** One phase of a run's schedule. */
export interface PhaseRecord {
  readonly runId: string;
  /** 0-based position in the schedule. */
  readonly phaseIndex: number;
  readonly name: string;
  readonly mode: PhaseMode;
  readonly status: PhaseStatus;
  /** The termination reason (`success`, `plateau`, `max_episodes`, `cancelled`, `failed`, ...). */
  readonly terminationReason: string | null;
  /** Episodes the phase ran, training and evaluation alike; 0 until `finishPhase`. */
  readonly episodes: number;
  /** Why a failed phase failed. */
  readonly error: string | null;
  readonly startedAt: string;
  readonly endedAt: string | null;
}

/** What `startPhase` needs. */
export interface NewPhase {
  readonly runId: string;
  readonly phaseIndex: number;
  readonly name: string;
  readonly mode: PhaseMode;
  readonly startedAt?: string;
}

/** How a phase ended, given to `finishPhase`. */
export interface PhaseOutcome {
  readonly status: Exclude<PhaseStatus, 'running'>;
  readonly terminationReason: string | null;
  readonly episodes: number;
  readonly error?: string | null;
  readonly endedAt?: string;
}

/**
 * One finished episode. `episode` is its 1-based position among all episodes
 * the phase ran, training and evaluation alike, so that it orders the phase.
 */
export interface EpisodeRecord {
  readonly runId: string;
  readonly phaseIndex: number;
  readonly episode: number;
  readonly mode: PhaseMode;
  /** An evaluation episode (no learning) rather than a training one. */
  readonly evaluation: boolean;
  /** The sum of the operating agents' rewards; finite. */
  readonly episodeReturn: number;
  readonly steps: number;
  /** Return per agent name. */
  readonly returnsByAgent: JsonValue;
  /** Why the episode ended (`environment_done`, `max_steps`, `cancelled`, ...). */
  readonly doneReason: string;
}

/** One evaluation checkpoint and the termination machine's decision on it. */
export interface CheckpointRecord {
  readonly runId: string;
  readonly phaseIndex: number;
  /** 0-based position among the phase's checkpoints. */
  readonly checkpointIndex: number;
  /** The phase episode (see `EpisodeRecord.episode`) after which it was taken. */
  readonly afterEpisode: number;
  /** The evaluation outcomes: `[{ agentName, evaluationId, metrics, ... }]`. */
  readonly outcomes: JsonValue;
  readonly status: CheckpointStatus;
  /** `{ control, reason, report }` as the termination machine emitted it. */
  readonly decision: JsonValue;
  /** The rejection error of a rejected checkpoint. */
  readonly error: JsonValue | null;
}

/** One definition decision of the meta turn. */
export interface MetaDecisionRecord {
  readonly runId: string;
  readonly phaseIndex: number;
  /** 1-based count of start requests in the phase. */
  readonly startRequest: number;
  /** The phase episode (see `EpisodeRecord.episode`) that this start request begins. */
  readonly firstEpisode: number;
  readonly environmentUid: string;
  /** The meta agent's name. */
  readonly agentName: string;
  /**
   * The ScenarioDecisionRecord. `arena show` prints `baseline` and `candidate`
   * (objects keyed by selector UID) as `uid: baseline → candidate`.
   */
  readonly record: JsonValue;
}

/** A resume point saved at an episode barrier. */
export interface SnapshotRecord {
  readonly runId: string;
  readonly phaseIndex: number;
  /** The last phase episode finished before the snapshot. */
  readonly episode: number;
  readonly createdAt: string;
  /** Everything the runner needs to resume exactly: actor snapshots, brains, RNG states, counters. */
  readonly state: JsonValue;
}

/** What `saveSnapshot` needs; `createdAt` defaults to the store's clock. */
export type NewSnapshot = Omit<SnapshotRecord, 'createdAt'> & { readonly createdAt?: string };

/** Where a resumed run starts again: just after this episode of this phase. */
export interface ResumePoint {
  readonly phaseIndex: number;
  readonly episode: number;
}

/** Episode count and mean return of one phase's training or evaluation episodes. */
export interface EpisodeSummary {
  readonly phaseIndex: number;
  readonly evaluation: boolean;
  readonly count: number;
  readonly meanReturn: number;
}

/** Where a sweep stands: `running` until every trial ended, or stopped by a failure or a cancel. */
export type SweepStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

/** A stored sweep: its file, as given, and its state as of its last decision. */
export interface SweepRecord {
  readonly sweepId: string;
  readonly uid: string;
  /** The sweep file's text. */
  readonly sweepFile: string;
  readonly sweepFilePath: string;
  readonly status: SweepStatus;
  /** The sweep machine's state (trials, rungs, decisions), as persisted at its last decision. */
  readonly state: JsonValue;
  readonly error: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What `createSweep` needs; the id is made from `uid` unless given. */
export interface NewSweep {
  readonly uid: string;
  readonly sweepFile: string;
  readonly sweepFilePath: string;
  readonly state: JsonValue;
  readonly sweepId?: string;
  readonly createdAt?: string;
}

/** A trial of a sweep: which run it is, what it varies, and where it holds. */
export interface SweepTrialRecord {
  readonly sweepId: string;
  readonly trialIndex: number;
  readonly runId: string;
  /** The values the trial sets, `[{ pointer, value }]` in the sweep file's order. */
  readonly parameters: JsonValue;
  /** The checkpoint count its run holds at (handed back) until its rung is decided; `null`: runs to its end. */
  readonly holdAt: number | null;
}

/**
 * The run store. Every method is synchronous; a run id that does not exist
 * throws `RunNotFoundError`, and writing a record whose key already exists
 * throws `DuplicateRecordError`. A store opened read-only throws
 * `StoreReadOnlyError` from every write.
 */
export interface RunStore {
  /** Whether the store was opened for reading only. */
  readonly readonly: boolean;
  /** Record a new run with status `running` (or `queued`, see `NewRun.status`) and return it. */
  createRun(run: NewRun): RunRecord;
  /**
   * Take the run's lease: free, lapsed, or `takeOver` says yes. Throws
   * `RunLeasedError` (naming the holder) when another owner holds it.
   */
  acquireLease(runId: string, request: LeaseRequest): Lease;
  /** Extend a held lease by `ttlMs` from now; throws `LeaseLostError` when it is no longer held. */
  renewLease(lease: Lease, ttlMs: number): void;
  /** Throw `LeaseLostError` unless `lease` is still held: call it inside a transaction to fence writes. */
  requireLease(lease: Lease): void;
  /** Give a lease up; nothing happens when it is no longer held. */
  releaseLease(lease: Lease): void;
  /**
   * Count one more delivery of the run to a worker, committed at once, and
   * return its number (1 for the first): claimed before the run starts or
   * resumes, so a worker that dies while running it cannot lose the count.
   */
  claimDelivery(runId: string, owner: LeaseOwner): number;
  /** Record that the worker of delivery `delivery` ended it itself (nothing happens for an older one). */
  settleDelivery(runId: string, delivery: number): void;
  /** The run's deliveries claimed and settled so far. */
  deliveryCount(runId: string): DeliveryCount;
  recordResume(record: Omit<ResumeRecord, 'resumeIndex' | 'resumedAt'>): ResumeRecord;
  resumes(runId: string): ResumeRecord[];
  /** Record which instance serves one remote component; the same session again writes nothing. */
  recordRemoteComponent(record: NewRemoteComponent): void;
  /** The run's remote components and their instances, in the order the run opened them. */
  remoteComponents(runId: string): RemoteComponentRecord[];
  finishRun(runId: string, outcome: RunOutcome): RunRecord;
  startPhase(phase: NewPhase): PhaseRecord;
  finishPhase(runId: string, phaseIndex: number, outcome: PhaseOutcome): PhaseRecord;
  recordEpisode(record: EpisodeRecord): void;
  recordCheckpoint(record: CheckpointRecord): void;
  recordMetaDecision(record: MetaDecisionRecord): void;
  /** Save a resume point; saving again at the same barrier replaces it. */
  saveSnapshot(snapshot: NewSnapshot): void;
  /** The newest resume point, or `null` when the run has none. */
  latestSnapshot(runId: string): SnapshotRecord | null;
  snapshotCount(runId: string): number;
  getRun(runId: string): RunRecord;
  /** Runs, newest first. */
  listRuns(options?: { limit?: number }): RunRecord[];
  phases(runId: string): PhaseRecord[];
  episodes(runId: string, phaseIndex?: number): EpisodeRecord[];
  /** Count and mean return per phase and kind of episode, in phase order. */
  episodeSummary(runId: string): EpisodeSummary[];
  checkpoints(runId: string, phaseIndex?: number): CheckpointRecord[];
  metaDecisions(runId: string): MetaDecisionRecord[];
  /**
   * Make the run look as it did when the snapshot at `point` was saved: delete
   * every record written after it, reopen its phase and the run. A resumed run
   * then writes the same records as one that never stopped. Episode 0 of a
   * phase that was never started means the moment before it starts; any other
   * point in such a phase throws `PhaseNotFoundError`.
   */
  truncateAfter(runId: string, point: ResumePoint): void;
  /**
   * Make the run look as it did the moment it was created: delete all its
   * phases and their records and reopen it. What a resume does for a run
   * that stopped before its first resume point.
   */
  rewindToStart(runId: string): void;
  /** Record a new sweep with status `running`. */
  createSweep(sweep: NewSweep): SweepRecord;
  /** Persist a sweep's state (and status); throws `SweepNotFoundError` for an unknown id. */
  saveSweep(
    sweepId: string,
    update: {
      readonly status: SweepStatus;
      readonly state: JsonValue;
      readonly error?: string | null;
    },
  ): SweepRecord;
  getSweep(sweepId: string): SweepRecord;
  /** Sweeps, newest first. */
  listSweeps(): SweepRecord[];
  /** Record which run is a sweep's trial; the trial's run must exist. */
  recordTrial(trial: SweepTrialRecord): void;
  /** Set where a trial's run holds (`null`: nowhere); throws `RunNotFoundError` for a run that is no trial. */
  holdTrial(runId: string, holdAt: number | null): void;
  /** A sweep's trials, by index. */
  sweepTrials(sweepId: string): SweepTrialRecord[];
  /** The trial a run is, or `null` for a run of no sweep. */
  trialOfRun(runId: string): SweepTrialRecord | null;
  /** Run `work` in one transaction: all of its writes land, or none. */
  transaction<T>(work: () => T): T;
  close(): void;
}
