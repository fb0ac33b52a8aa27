/**
 * `arena-runtime/store`: the run store port, its SQLite and in-memory
 * adapters, the batching writer, run leases and the store's errors.
 *
 * @example
 * ```ts
 * import { openStore, parseStoreUri } from 'arena-runtime/store';
 * const store = openStore(parseStoreUri('sqlite:.arena/arena.db'));
 * store.listRuns().map((run) => run.status); // ['succeeded', 'cancelled']
 * ```
 */

export { defaultLeaseTtlMs, holderProcessIsGone, processLeaseOwner } from '../ports/leaseOwner.js';
export type {
  CheckpointRecord,
  CheckpointStatus,
  EpisodeRecord,
  EpisodeSummary,
  MetaDecisionRecord,
  MigratableDatabase,
  NewPhase,
  NewRun,
  NewSnapshot,
  PhaseMode,
  PhaseOutcome,
  PhaseRecord,
  PhaseStatus,
  ResumePoint,
  RunIdGenerator,
  RunOutcome,
  RunRecord,
  RunStatus,
  RunStore,
  SnapshotRecord,
  StoreLocation,
  StoreOptions,
  StoreWriteCommand,
  StoreWriter,
  StoreWriterOptions,
} from '../ports/runStore.js';
export {
  createMemoryStore,
  createRunIdGenerator,
  createStoreWriter,
  DuplicateRecordError,
  defaultStorePath,
  InvalidRecordError,
  migrateStore,
  NothingToResumeError,
  openSqliteStore,
  openStore,
  PhaseNotFoundError,
  parseStoreUri,
  RunNotFoundError,
  rewindToLatestSnapshot,
  StoreSchemaError,
  StoreUriError,
  StoreWriteError,
  StoreWriterClosedError,
} from '../ports/runStore.js';
export { checkSqliteStore, type StoreCheck } from '../ports/sqlite/sqliteCheck.js';
export type {
  Lease,
  LeaseHolder,
  LeaseOwner,
  LeaseRequest,
  ModuleFingerprint,
  ResumeRecord,
} from '../ports/store.js';
export {
  LeaseLostError,
  RunLeasedError,
  StoreNotFoundError,
  StoreOpenError,
  StoreReadOnlyError,
} from '../ports/storeErrors.js';
