import { systemClock } from '../../runtime/clock.js';
import { createRunIdGenerator } from '../../runtime/runId.js';
import { runStoreOver } from '../core/runStoreCore.js';
import type { StoreOptions } from '../sqlite/sqliteStore.js';
import type { RunStore } from '../store.js';
import { memoryDialect } from './memoryDialect.js';
import { createMemoryStoreState, type MemoryStoreState } from './memoryTables.js';

export { createMemoryStoreState, type MemoryStoreState } from './memoryTables.js';

/**
 * A run store that lives in memory and is gone on `close()`, for tests of the
 * runner and for apps that keep no records. Plain JavaScript, no native
 * addon: the store core's rules (the same ones the SQLite and PostgreSQL
 * stores run: ordering, errors, canonical JSON round trip, leases and
 * transactions; test/contract/runStoreContract.ts) over `Map`s of rows.
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

/**
 * A handle on a memory store's state (see `createMemoryStore`): handles on one
 * state are what processes sharing one store file are.
 *
 * @internal see `MemoryStoreState`.
 * @example
 * ```ts
 * const store = openMemoryStore(createMemoryStoreState(), { clock: systemClock });
 * ```
 */
export function openMemoryStore(state: MemoryStoreState, options: StoreOptions = {}): RunStore {
  return runStoreOver(memoryDialect(state), {
    readonly: options.readonly === true,
    clock: options.clock ?? systemClock,
    newRunId: options.newRunId ?? createRunIdGenerator(),
  });
}
