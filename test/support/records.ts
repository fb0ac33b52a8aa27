import { openSqliteStore } from '../../src/ports/store/sqlite/sqliteStore.js';
import type { RunStore } from '../../src/ports/store/store.js';

/**
 * A run's records without its id and wall-clock times: what two runs of the
 * same file and seed (or a resumed run and an uninterrupted one) must share.
 */
export function runRecords(store: RunStore, runId: string) {
  const strip = <T extends object>(record: T) => {
    const { runId: _runId, ...rest } = record as T & { runId: string };
    return rest;
  };
  return {
    phases: store.phases(runId).map(({ startedAt: _s, endedAt: _e, ...phase }) => strip(phase)),
    episodes: store.episodes(runId).map(strip),
    checkpoints: store.checkpoints(runId).map(strip),
    metaDecisions: store.metaDecisions(runId).map((decision) => {
      const { record, ...rest } = strip(decision);
      // the evidence record carries the decision's wall-clock time and its hash
      const { record: _evidence, ...values } = record as Record<string, unknown>;
      return { ...rest, values };
    }),
  };
}

/** Read a store file that others write (read-only, never locking them out), and close it again. */
export function readStore<T>(file: string, read: (store: RunStore) => T): T {
  const store = openSqliteStore(file, { readonly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}
