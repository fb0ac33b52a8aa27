import type { RunStore } from '../../src/ports/store/store.js';

/** What a store handle throws once its process is "killed". */
export class SimulatedKill extends Error {
  constructor() {
    super('simulated kill');
    this.name = 'SimulatedKill';
  }
}

const reads = new Set<keyof RunStore>([
  'readonly',
  'getRun',
  'listRuns',
  'phases',
  'episodes',
  'episodeSummary',
  'checkpoints',
  'metaDecisions',
  'latestSnapshot',
  'snapshotCount',
  'resumes',
  'requireLease',
  'close',
]);

/**
 * A store handle that dies like a killed process: the `killAt`-th write call
 * (counting every write, inside transactions too) throws before it happens, the
 * transaction around it rolls back, and from then on every call throws. What
 * is in the file then is exactly what a SIGKILL at that moment leaves: the
 * transactions committed before it.
 *
 * @example
 * ```ts
 * const store = dyingStore(openSqliteStore(file), 12);
 * ```
 */
export function dyingStore(
  store: RunStore,
  killAt: number,
): RunStore & { readonly killed: boolean; readonly writes: number } {
  let writes = 0;
  let killed = false;
  return new Proxy(store, {
    get(target, key: string | symbol) {
      if (key === 'killed') return killed;
      if (key === 'writes') return writes;
      const value = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (killed && key !== 'close') throw new SimulatedKill();
        if (!reads.has(key as keyof RunStore)) {
          writes += 1;
          if (writes === killAt) {
            killed = true;
            throw new SimulatedKill();
          }
        }
        return (value as (...parameters: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as RunStore & { readonly killed: boolean; readonly writes: number };
}
