import type { RunStore } from '../ports/store/store.js';
import { runActivity, type ShownRunStatus } from './runActivity.js';

/** One line of `arena runs`. */
export interface RunListing {
  readonly runId: string;
  readonly uid: string;
  /** The stored status, except that a `running` run nobody runs any more is `interrupted` (`runActivity`). */
  readonly status: ShownRunStatus;
  readonly startedAt: string;
  readonly phases: number;
  /** Training and evaluation episodes of all phases. */
  readonly episodes: number;
  /** The termination reason of the last phase that has one, once the run has ended (else `null`). */
  readonly terminationReason: string | null;
  /** The worker (`arena worker --name`) holding the run's lease now, or `null`. */
  readonly worker: string | null;
}

/**
 * The newest runs of a store, as `arena runs` lists them.
 *
 * @example
 * ```ts
 * runListings(store, 1);
 * // [{ runId: 'grid-demo-20261129T200702-3fa2', uid: 'grid-demo', status: 'succeeded',
 * //    startedAt: '2026-11-29T20:07:02.000Z', phases: 1, episodes: 6, terminationReason: 'success' }]
 * ```
 */
export function runListings(store: RunStore, limit: number): RunListing[] {
  return store.listRuns({ limit }).map((run) => {
    const phases = store.phases(run.runId);
    const episodes = store
      .episodeSummary(run.runId)
      .reduce((total, summary) => total + summary.count, 0);
    const reasons = phases.flatMap((phase) =>
      phase.terminationReason === null ? [] : [phase.terminationReason],
    );
    const { status } = runActivity(run);
    const ended = status === 'succeeded' || status === 'failed' || status === 'cancelled';
    return {
      runId: run.runId,
      uid: run.uid,
      status,
      startedAt: run.startedAt,
      phases: phases.length,
      episodes,
      terminationReason: ended ? (reasons.at(-1) ?? null) : null,
      worker: run.lease?.owner.worker ?? null,
    };
  });
}
