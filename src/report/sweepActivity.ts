import { ownerProcessIsGone } from '../ports/store/leaseOwner.js';
import type { LeaseOwner, SweepRecord, SweepStatus } from '../ports/store/store.js';

/** A stored sweep's status as a reader should see it: `running` only while someone runs it. */
export interface SweepActivity {
  readonly status: SweepStatus | 'interrupted';
  /** Why an `interrupted` sweep is no longer running, else `null`. */
  readonly interruption: string | null;
}

/**
 * A stored sweep's status as `arena show` tells it: a `running` sweep that
 * was stopped (Ctrl-C), or whose runner is a process of this host that is
 * gone (killed), is `interrupted`: resume it. A runner on another host is
 * taken at its word.
 *
 * @example
 * ```ts
 * sweepActivity(store.getSweep(sweepId)); // after Ctrl-C
 * // { status: 'interrupted', interruption: 'it was stopped' }
 * ```
 */
export function sweepActivity(record: Pick<SweepRecord, 'status' | 'state'>): SweepActivity {
  if (record.status !== 'running') return { status: record.status, interruption: null };
  const { runner } = (record.state ?? {}) as { runner?: LeaseOwner | null };
  if (runner === null) return { status: 'interrupted', interruption: 'it was stopped' };
  if (runner !== undefined && ownerProcessIsGone(runner)) {
    return {
      status: 'interrupted',
      interruption: `its runner (pid ${runner.pid} on ${runner.host}) is gone`,
    };
  }
  return { status: 'running', interruption: null };
}
