import type { RunQueue } from '../../../ports/queue/runQueue.js';
import type { RunStore } from '../../../ports/store/store.js';

/** What `requeueRuns` found and did. */
export interface RequeuedRuns {
  /** Runs published again (the queue had lost them). */
  readonly putBack: readonly string[];
  /** Runs the queue still held (found in it, or dropped as duplicates of their message id). */
  readonly stillQueued: number;
}

/**
 * The store is the truth, the queue a cache of it: publish again every run
 * the store holds as `queued`, or as `running` under a lapsed (or no) lease,
 * that the queue does not hold. What it holds is read from it first (the
 * duplicate window forgets a run id after minutes, the queue does not); the
 * run id is still the message id, so a run queued meanwhile is dropped as a
 * duplicate, and a run taken twice is still run once (its lease decides).
 *
 * @example
 * ```ts
 * await requeueRuns(store, queue);
 * // { putBack: ['slow-20260301T101500-3fa2'], stillQueued: 4 }
 * ```
 */
export async function requeueRuns(
  store: Pick<RunStore, 'listRuns'>,
  queue: Pick<RunQueue, 'submit' | 'queuedRunIds'>,
  now: () => number = Date.now,
): Promise<RequeuedRuns> {
  const putBack: string[] = [];
  let stillQueued = 0;
  const held = (await queue.queuedRunIds?.()) ?? new Set<string>();
  for (const run of store.listRuns()) {
    const lapsed =
      run.status === 'running' && (run.lease === null || Date.parse(run.lease.expiresAt) < now());
    if (run.status !== 'queued' && !lapsed) continue;
    if (held.has(run.runId)) {
      stillQueued++;
      continue;
    }
    const { duplicate } = await queue.submit(run.runId);
    if (duplicate) stillQueued++;
    else putBack.push(run.runId);
  }
  return { putBack, stillQueued };
}
