/**
 * The run store's public API: the port, its SQLite and in-memory adapters,
 * the batching writer, `--store` parsing, run ids and errors.
 * `src/index.ts` re-exports this barrel.
 */

export { createMemoryStore } from './memoryStore.js';
export { rewindToLatestSnapshot } from './rewindRun.js';
export { createRunIdGenerator, type RunIdGenerator } from './runId.js';
export { type MigratableDatabase, migrateStore, storeMigrations } from './sqlite/sqliteSchema.js';
export { openSqliteStore, type StoreOptions } from './sqlite/sqliteStore.js';
export type {
  CheckpointRecord,
  CheckpointStatus,
  EpisodeRecord,
  EpisodeSummary,
  MetaDecisionRecord,
  NewPhase,
  NewRun,
  NewSnapshot,
  PhaseMode,
  PhaseOutcome,
  PhaseRecord,
  PhaseStatus,
  ResumePoint,
  RunOutcome,
  RunRecord,
  RunStatus,
  RunStore,
  SnapshotRecord,
} from './store.js';
export { decodeStoredJson, encodeStoredJson } from './storedJson.js';
export {
  DuplicateRecordError,
  InvalidRecordError,
  NothingToResumeError,
  PhaseNotFoundError,
  RunNotFoundError,
  StoreSchemaError,
  StoreUriError,
  StoreWriteError,
  StoreWriterClosedError,
} from './storeErrors.js';
export {
  defaultStorePath,
  openStore,
  openStoreAsync,
  parseStoreUri,
  type StoreLocation,
} from './storeUri.js';
export {
  createStoreWriter,
  type StoreWriteCommand,
  type StoreWriter,
  type StoreWriterOptions,
} from './storeWriter.js';
