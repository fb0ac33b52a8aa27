import type { RunStore } from '../../ports/store/store.js';
import { RunNotFoundError, SweepNotFoundError } from '../../ports/store/storeErrors.js';

/**
 * Whether `id` names a sweep of the store and no run (what `arena show` and
 * `arena report` then show: the sweep).
 *
 * @example
 * ```ts
 * isSweepOnly(store, 'plateau-sizes-20261202T113100-43f5'); // true
 * ```
 */
export function isSweepOnly(store: RunStore, id: string): boolean {
  return (
    !holds(() => store.getRun(id), RunNotFoundError) &&
    holds(() => store.getSweep(id), SweepNotFoundError)
  );
}

/** Whether `read` finds its record; `missing` is the error of a record that is not there. */
function holds(read: () => unknown, missing: abstract new (...args: never[]) => Error): boolean {
  try {
    read();
    return true;
  } catch (error) {
    if (error instanceof missing) return false;
    throw error;
  }
}
