import type { EpisodeReturn } from '../episodeSummaries.js';
import type {
  CheckpointRecord,
  CheckpointStatus,
  DeliveryCount,
  EpisodeRecord,
  LeaseHolder,
  LeaseOwner,
  MetaDecisionRecord,
  ModuleFingerprint,
  PhaseMode,
  PhaseRecord,
  PhaseStatus,
  RemoteComponentRecord,
  ResumeRecord,
  RunRecord,
  RunStatus,
  SnapshotRecord,
  SweepRecord,
  SweepStatus,
  SweepTrialRecord,
} from '../store.js';
import { decodeStoredJson } from '../storedJson.js';
import { type Flag, isSet } from './flag.js';

/**
 * Rows of the run store's tables as either database returns them, and their
 * mapping to the port's records. The columns are the same in both; a flag is
 * 0/1 in SQLite and a boolean in PostgreSQL.
 */

export interface RunRow {
  run_id: string;
  uid: string;
  seed: number;
  run_file: string;
  run_file_path: string;
  status: string;
  started_at: string;
  ended_at: string | null;
  error: string | null;
  summary: string | null;
  // columns of schema version 2; absent when a version-1 file is read read-only
  run_file_sha256?: string | null;
  modules?: string | null;
  lease_owner?: string | null;
  lease_token?: number;
  lease_heartbeat_ms?: number | null;
  lease_expires_ms?: number | null;
  // columns of SQLite schema 5, PostgreSQL schema 4; absent when an older store is read read-only
  deliveries?: number;
  deliveries_settled?: number;
  delivery_owner?: string | null;
}

export interface PhaseRow {
  run_id: string;
  phase_index: number;
  name: string;
  mode: string;
  status: string;
  termination_reason: string | null;
  episodes: number;
  started_at: string;
  ended_at: string | null;
  error?: string | null;
}

export interface EpisodeRow {
  run_id: string;
  phase_index: number;
  episode: number;
  mode: string;
  evaluation: Flag;
  episode_return: number;
  steps: number;
  returns_by_agent: string;
  done_reason: string;
}

export interface CheckpointRow {
  run_id: string;
  phase_index: number;
  checkpoint_index: number;
  after_episode: number;
  outcomes: string;
  status: string;
  decision: string;
  error: string | null;
}

export interface MetaDecisionRow {
  run_id: string;
  phase_index: number;
  start_request: number;
  first_episode: number;
  environment_uid: string;
  agent_name: string;
  record: string;
}

export interface SnapshotRow {
  run_id: string;
  phase_index: number;
  episode: number;
  created_at: string;
  state: string;
}

export function runFromRow(row: RunRow): RunRecord {
  return {
    runId: row.run_id,
    uid: row.uid,
    seed: row.seed,
    runFile: row.run_file,
    runFilePath: row.run_file_path,
    status: row.status as RunStatus,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    error: row.error,
    summary: row.summary === null ? null : decodeStoredJson(row.summary),
    runFileSha256: row.run_file_sha256 ?? null,
    modules:
      row.modules === null || row.modules === undefined
        ? null
        : (decodeStoredJson(row.modules) as unknown as ModuleFingerprint[]),
    lease: leaseHolderFromRow(row),
  };
}

/** The lease columns of a run row, or `null` when nobody holds its lease. */
export function leaseHolderFromRow(row: RunRow): LeaseHolder | null {
  if (row.lease_owner === null || row.lease_owner === undefined) return null;
  return {
    owner: JSON.parse(row.lease_owner) as LeaseOwner,
    heartbeatAt: new Date(row.lease_heartbeat_ms ?? 0).toISOString(),
    expiresAt: new Date(row.lease_expires_ms ?? 0).toISOString(),
  };
}

/** The delivery columns of a run row: all 0 before the store counted deliveries. */
export function deliveryCountFromRow(row: RunRow): DeliveryCount {
  return {
    claimed: row.deliveries ?? 0,
    settled: row.deliveries_settled ?? 0,
    owner:
      row.delivery_owner === null || row.delivery_owner === undefined
        ? null
        : (JSON.parse(row.delivery_owner) as LeaseOwner),
  };
}

export function phaseFromRow(row: PhaseRow): PhaseRecord {
  return {
    runId: row.run_id,
    phaseIndex: row.phase_index,
    name: row.name,
    mode: row.mode as PhaseMode,
    status: row.status as PhaseStatus,
    terminationReason: row.termination_reason,
    episodes: row.episodes,
    error: row.error ?? null,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

export function episodeFromRow(row: EpisodeRow): EpisodeRecord {
  return {
    runId: row.run_id,
    phaseIndex: row.phase_index,
    episode: row.episode,
    mode: row.mode as PhaseMode,
    evaluation: isSet(row.evaluation),
    episodeReturn: row.episode_return,
    steps: row.steps,
    returnsByAgent: decodeStoredJson(row.returns_by_agent),
    doneReason: row.done_reason,
  };
}

export function checkpointFromRow(row: CheckpointRow): CheckpointRecord {
  return {
    runId: row.run_id,
    phaseIndex: row.phase_index,
    checkpointIndex: row.checkpoint_index,
    afterEpisode: row.after_episode,
    outcomes: decodeStoredJson(row.outcomes),
    status: row.status as CheckpointStatus,
    decision: decodeStoredJson(row.decision),
    error: row.error === null ? null : decodeStoredJson(row.error),
  };
}

export function metaDecisionFromRow(row: MetaDecisionRow): MetaDecisionRecord {
  return {
    runId: row.run_id,
    phaseIndex: row.phase_index,
    startRequest: row.start_request,
    firstEpisode: row.first_episode,
    environmentUid: row.environment_uid,
    agentName: row.agent_name,
    record: decodeStoredJson(row.record),
  };
}

export function snapshotFromRow(row: SnapshotRow): SnapshotRecord {
  return {
    runId: row.run_id,
    phaseIndex: row.phase_index,
    episode: row.episode,
    createdAt: row.created_at,
    state: decodeStoredJson(row.state),
  };
}

export interface ResumeRow {
  run_id: string;
  resume_index: number;
  resumed_at: string;
  owner: string;
  phase_index: number;
  episode: number;
  forced: Flag;
  changed_modules: string;
}

export function resumeFromRow(row: ResumeRow): ResumeRecord {
  return {
    runId: row.run_id,
    resumeIndex: row.resume_index,
    resumedAt: row.resumed_at,
    owner: row.owner,
    phaseIndex: row.phase_index,
    episode: row.episode,
    forced: isSet(row.forced),
    changedModules: decodeStoredJson(row.changed_modules) as string[],
  };
}

export interface RemoteComponentRow {
  run_id: string;
  session: string;
  open_index: number;
  phase_index: number;
  kind: string;
  component: string;
  service: string;
  instance: string;
  host: string | null;
  pid: number | null;
  opened_at: string;
}

export function remoteComponentFromRow(row: RemoteComponentRow): RemoteComponentRecord {
  return {
    runId: row.run_id,
    phaseIndex: Number(row.phase_index),
    kind: row.kind,
    component: row.component,
    service: row.service,
    session: row.session,
    instance: row.instance,
    host: row.host,
    pid: row.pid === null ? null : Number(row.pid),
    openedAt: row.opened_at,
  };
}

/** A row of `episodeReturns`: what a summary reads of one episode. */
export interface EpisodeReturnRow {
  phase_index: number;
  evaluation: Flag;
  episode_return: number;
}

export function episodeReturnFromRow(row: EpisodeReturnRow): EpisodeReturn {
  return {
    phaseIndex: row.phase_index,
    evaluation: isSet(row.evaluation),
    episodeReturn: row.episode_return,
  };
}

export interface SweepRow {
  readonly sweep_id: string;
  readonly uid: string;
  readonly sweep_file: string;
  readonly sweep_file_path: string;
  readonly status: string;
  readonly state: string;
  readonly error: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

export function sweepFromRow(row: SweepRow): SweepRecord {
  return {
    sweepId: row.sweep_id,
    uid: row.uid,
    sweepFile: row.sweep_file,
    sweepFilePath: row.sweep_file_path,
    status: row.status as SweepStatus,
    state: decodeStoredJson(row.state),
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface SweepTrialRow {
  readonly sweep_id: string;
  readonly trial_index: number | string;
  readonly run_id: string;
  readonly parameters: string;
  readonly hold_at: number | string | null;
}

export function sweepTrialFromRow(row: SweepTrialRow): SweepTrialRecord {
  return {
    sweepId: row.sweep_id,
    trialIndex: Number(row.trial_index),
    runId: row.run_id,
    parameters: decodeStoredJson(row.parameters),
    holdAt: row.hold_at === null ? null : Number(row.hold_at),
  };
}
