import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { LeaseHolder, LeaseOwner } from './store.js';

/**
 * How long a run's lease lasts without a heartbeat, unless told otherwise
 * (`runExperiment`'s `leaseTtlMs`, the CLI's `ARENA_LEASE_TTL_MS`).
 *
 * @example
 * ```ts
 * await runExperiment(spec, { store, builtins, leaseTtlMs: defaultLeaseTtlMs * 4 }); // a slow machine
 * ```
 */
export const defaultLeaseTtlMs = 15_000;

/**
 * This process as a lease owner: `pid 4242 on lab-1 (3fa2c1)`. The suffix
 * tells apart two runners in one process (tests, an embedding app).
 *
 * @example
 * ```ts
 * processLeaseOwner().id; // 'pid 4242 on lab-1 (3fa2c1)'
 * ```
 */
export function processLeaseOwner(): LeaseOwner {
  const host = hostname();
  return {
    id: `pid ${process.pid} on ${host} (${randomBytes(3).toString('hex')})`,
    host,
    pid: process.pid,
  };
}

/**
 * Whether a lease's holder is a process of this host that no longer exists (it
 * was killed): its lease may be taken at once instead of after it lapses. A
 * holder on another host is never judged gone; its lease lapses on its own.
 *
 * @example
 * ```ts
 * holderProcessIsGone(store.getRun(runId).lease!); // true after `kill -9` of that pid
 * ```
 */
export function holderProcessIsGone(holder: LeaseHolder): boolean {
  return ownerProcessIsGone(holder.owner);
}

/**
 * Whether an owner is a process of this host that no longer exists; one on
 * another host is never judged gone.
 *
 * @example
 * ```ts
 * ownerProcessIsGone({ id: 'pid 1 on lab-1', host: 'lab-1', pid: 1 }); // false while pid 1 lives
 * ```
 */
export function ownerProcessIsGone(owner: LeaseOwner): boolean {
  if (owner.host !== hostname() || owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
