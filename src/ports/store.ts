import type { JsonValue } from '../domain/shared/json.js';

/**
 * The run store port: what a run leaves behind. Runs, their phases, episodes,
 * evaluation checkpoints, meta decisions and resume snapshots, written by the
 * experiment runner and read by `arena runs`, `arena show` and `--resume`.
 *
 * Timestamps are ISO 8601 strings (`2026-11-29T20:07:02.000Z`); JSON fields are
 * stored as canonical JSON, so equal values always read back equal.
 */

/** How a run ended, or `running` while it has not. */
export type RunStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

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
  /** Where the run file was read from. */
  readonly runFilePath: string;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly endedAt: string | null;
  /** The error message of a failed run. */
  readonly error: string | null;
  /** The runner's closing summary. */
  readonly summary: JsonValue | null;
}

/** What `createRun` needs; the id and start time default to the store's generator and clock. */
export interface NewRun {
  readonly uid: string;
  readonly seed: number;
  readonly runFile: string;
  readonly runFilePath: string;
  readonly runId?: string;
  readonly startedAt?: string;
}

/** How a run ended, given to `finishRun`. */
export interface RunOutcome {
  readonly status: Exclude<RunStatus, 'running'>;
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
  /** Episodes the phase ran; 0 until `finishPhase`. */
  readonly episodes: number;
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

/**
 * The run store. Every method is synchronous; a run id that does not exist
 * throws `RunNotFoundError`, and writing a record whose key already exists
 * throws `DuplicateRecordError`.
 */
export interface RunStore {
  /** Record a new run with status `running` and return it. */
  createRun(run: NewRun): RunRecord;
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
  /** Run `work` in one transaction: all of its writes land, or none. */
  transaction<T>(work: () => T): T;
  close(): void;
}
