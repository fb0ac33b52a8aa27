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

export { createRunIdGenerator, type RunIdGenerator } from '../ports/runtime/runId.js';
export {
  defaultLeaseTtlMs,
  holderProcessIsGone,
  processLeaseOwner,
} from '../ports/store/leaseOwner.js';
export { createMemoryStore } from '../ports/store/memory/memoryStore.js';
export { rewindToLatestSnapshot } from '../ports/store/rewindRun.js';
export { checkSqliteStore, type StoreCheck } from '../ports/store/sqlite/sqliteCheck.js';
export { type MigratableDatabase, migrateStore } from '../ports/store/sqlite/sqliteSchema.js';
export { openSqliteStore, type StoreOptions } from '../ports/store/sqlite/sqliteStore.js';
export type {
  CheckpointRecord,
  CheckpointStatus,
  EpisodeRecord,
  EpisodeSummary,
  Lease,
  LeaseHolder,
  LeaseOwner,
  LeaseRequest,
  MetaDecisionRecord,
  ModuleFingerprint,
  NewPhase,
  NewRun,
  NewSnapshot,
  PhaseMode,
  PhaseOutcome,
  PhaseRecord,
  PhaseStatus,
  ResumePoint,
  ResumeRecord,
  RunOutcome,
  RunRecord,
  RunStatus,
  RunStore,
  SnapshotRecord,
} from '../ports/store/store.js';
export {
  DuplicateRecordError,
  InvalidRecordError,
  LeaseLostError,
  NothingToResumeError,
  PhaseNotFoundError,
  RunLeasedError,
  RunNotFoundError,
  StoreNotFoundError,
  StoreOpenError,
  StoreReadOnlyError,
  StoreSchemaError,
  StoreUriError,
  StoreUriParameterError,
  StoreWriteError,
  StoreWriterClosedError,
} from '../ports/store/storeErrors.js';
export {
  defaultStorePath,
  openStore,
  openStoreAsync,
  parseStoreUri,
  type StoreLocation,
} from '../ports/store/storeUri.js';
export {
  createStoreWriter,
  type StoreWriteCommand,
  type StoreWriter,
  type StoreWriterOptions,
} from '../ports/store/storeWriter.js';
