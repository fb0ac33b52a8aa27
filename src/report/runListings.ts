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
  /**
   * Training (and test) episodes of all phases: what a phase's `episodes` cap
   * counts, and what `arena run` and `arena show` call episodes.
   */
  readonly episodes: number;
  /** Evaluation episodes of all phases, counted apart (as `arena show` does). */
  readonly evaluationEpisodes: number;
  /** The termination reason of the last phase that has one, once the run has ended (else `null`). */
  readonly terminationReason: string | null;
  /** Each phase's termination reason in phase order (`null` for a phase without one), once the run has ended (else `[]`). */
  readonly terminationReasons: readonly (string | null)[];
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
 * //    startedAt: '2026-11-29T20:07:02.000Z', phases: 1, episodes: 4, evaluationEpisodes: 2,
 * //    terminationReason: 'success', terminationReasons: ['success'], worker: null }]
 * ```
 */
export function runListings(store: RunStore, limit: number): RunListing[] {
  return store.listRuns({ limit }).map((run) => {
    const phases = store.phases(run.runId);
    let episodes = 0;
    let evaluationEpisodes = 0;
    for (const summary of store.episodeSummary(run.runId)) {
      if (summary.evaluation) evaluationEpisodes += summary.count;
      else episodes += summary.count;
    }
    const reasons = phases.map((phase) => phase.terminationReason);
    const { status } = runActivity(run);
    const ended = status === 'succeeded' || status === 'failed' || status === 'cancelled';
    return {
      runId: run.runId,
      uid: run.uid,
      status,
      startedAt: run.startedAt,
      phases: phases.length,
      episodes,
      evaluationEpisodes,
      terminationReason: ended
        ? (reasons.filter((reason) => reason !== null).at(-1) ?? null)
        : null,
      terminationReasons: ended ? reasons : [],
      worker: run.lease?.owner.worker ?? null,
    };
  });
}
