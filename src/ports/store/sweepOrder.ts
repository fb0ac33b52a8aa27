import type { SweepRecord } from './store.js';

/**
 * How every store lists sweeps: newest first, ties by id in code-unit order
 * (sorted in TypeScript, not by each database's collation).
 *
 * @example
 * ```ts
 * sweeps.sort(newestSweepFirst).map((sweep) => sweep.sweepId); // ['b-…T1201…', 'a-…T1200…']
 * ```
 */
export function newestSweepFirst(a: SweepRecord, b: SweepRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  if (a.sweepId === b.sweepId) return 0;
  return a.sweepId < b.sweepId ? 1 : -1;
}
