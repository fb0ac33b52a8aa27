import { holderProcessIsGone } from '../ports/store/leaseOwner.js';
import type { RunRecord, RunStatus } from '../ports/store/store.js';

/** A run's status as a reader should see it: `running` only while someone runs it. */
export type ShownRunStatus = RunStatus | 'interrupted';

/** Whether anyone still runs a run, and for how long its lease holds without a heartbeat. */
export interface RunActivity {
  readonly status: ShownRunStatus;
  /** Seconds until a running run's lease lapses (rounded up), else `null`. */
  readonly leaseLapsesInSeconds: number | null;
  /** Why an `interrupted` run is no longer running, else `null`. */
  readonly interruption: string | null;
}

/**
 * A stored run's status as `arena show`, `runs` and `report` tell it: a
 * `running` run whose lease holder is a process of this host that is gone,
 * whose lease lapsed, or that nobody holds, is `interrupted` (resume it); a
 * live holder, or one on another host, is `running` until its lease lapses.
 *
 * @example
 * ```ts
 * runActivity(store.getRun(runId)); // after `kill -9` of the runner
 * // { status: 'interrupted', leaseLapsesInSeconds: null,
 * //   interruption: 'its runner (pid 16407 on lab-1) is gone' }
 * ```
 */
export function runActivity(
  run: Pick<RunRecord, 'status' | 'lease'>,
  now: number = Date.now(),
): RunActivity {
  const stopped = (interruption: string): RunActivity => ({
    status: 'interrupted',
    leaseLapsesInSeconds: null,
    interruption,
  });
  if (run.status !== 'running') {
    return { status: run.status, leaseLapsesInSeconds: null, interruption: null };
  }
  const { lease } = run;
  if (lease === null) return stopped('nobody holds its lease');
  const holder = `pid ${lease.owner.pid} on ${lease.owner.host}`;
  if (holderProcessIsGone(lease)) return stopped(`its runner (${holder}) is gone`);
  const left = Date.parse(lease.expiresAt) - now;
  if (left <= 0) return stopped(`the lease of its runner (${holder}) lapsed`);
  return { status: 'running', leaseLapsesInSeconds: Math.ceil(left / 1000), interruption: null };
}
