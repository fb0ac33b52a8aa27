import type * as Rows from '../core/runRows.js';

/** One run's row and every row below it, each table keyed as its primary key. */
export interface RunTables {
  row: Rows.RunRow;
  readonly phases: Map<number, Rows.PhaseRow>;
  /** By `phase:episode`. */
  readonly episodes: Map<string, Rows.EpisodeRow>;
  /** By `phase:checkpoint`. */
  readonly checkpoints: Map<string, Rows.CheckpointRow>;
  /** By `phase:startRequest`. */
  readonly metaDecisions: Map<string, Rows.MetaDecisionRow>;
  /** By `phase:episode`. */
  readonly snapshots: Map<string, Rows.SnapshotRow>;
  readonly resumes: Map<number, Rows.ResumeRow>;
  /** By session. */
  readonly remoteComponents: Map<string, Rows.RemoteComponentRow>;
}

/**
 * What handles of one memory store share: its tables, as the databases' rows,
 * and the undo log of the transaction open on it (`null` outside one).
 *
 * The memory store's own state (not exported by an entry): the contract tests open several handles on one.
 */
export interface MemoryStoreState {
  readonly runs: Map<string, RunTables>;
  readonly sweeps: Map<string, Rows.SweepRow>;
  /** Trials by their run's id (a run is one trial at most). */
  readonly trials: Map<string, Rows.SweepTrialRow>;
  undo: (() => void)[] | null;
}

/**
 * An empty memory store, to open handles on with `openMemoryStore`.
 *
 * Not exported by an entry (see `MemoryStoreState`).
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

/** The tables of a new run. */
export function newRunTables(row: Rows.RunRow): RunTables {
  return {
    row,
    phases: new Map(),
    episodes: new Map(),
    checkpoints: new Map(),
    metaDecisions: new Map(),
    snapshots: new Map(),
    resumes: new Map(),
    remoteComponents: new Map(),
  };
}

/**
 * Changes to the tables that an open transaction can undo: each notes how to
 * put back what it changed while the state has an undo log.
 */
export function undoableChanges(state: MemoryStoreState) {
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
  return {
    put,
    /** Remove every entry `doomed` picks; returns how many. */
    removeWhere<K, V>(map: Map<K, V>, doomed: (value: V) => boolean): number {
      let removed = 0;
      for (const [at, value] of [...map]) {
        if (!doomed(value)) continue;
        remove(map, at);
        removed++;
      }
      return removed;
    },
    /** A row with `patch` applied, put in the row's place (rows are never changed in place). */
    update<K, V extends object>(map: Map<K, V>, at: K, patch: Partial<V>): V | undefined {
      const row = map.get(at);
      if (row === undefined) return undefined;
      const next = { ...row, ...patch };
      put(map, at, next);
      return next;
    },
    /** Run `work` so that a throw undoes its changes (and only its own, inside another). */
    transaction<T>(work: () => T): T {
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
    },
  };
}
