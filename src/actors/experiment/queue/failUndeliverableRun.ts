import type { JsonValue } from '../../../domain/shared/json.js';
import { holderProcessIsGone } from '../../../ports/store/leaseOwner.js';
import type { LeaseOwner, RunStatus, RunStore } from '../../../ports/store/store.js';
import { summarizeStoredRun } from '../runSummary.js';

/** What `failUndeliverableRun` needs: who fails the run, and why. */
export interface FailRunRequest {
  /** The lease owner that records the failure (the worker). */
  readonly owner: LeaseOwner;
  readonly ttlMs: number;
  /** The run's error, as `arena show` prints it. */
  readonly error: string;
}

/**
 * Mark a run that cannot be run `failed`, under its lease as any runner
 * would: take the lease (refused with `RunLeasedError` while another live
 * process holds it), close a phase left `running` as failed, and record the
 * run's outcome, its closing summary and the lease's release in one
 * transaction. A run that ended meanwhile is left as it is; its status is
 * returned either way.
 *
 * @example
 * ```ts
 * failUndeliverableRun(store, runId, { owner, ttlMs: 15_000, error: 'ModuleMissingError: …' });
 * // 'failed'
 * store.getRun(runId).error; // 'ModuleMissingError: …'
 * ```
 */
export function failUndeliverableRun(
  store: RunStore,
  runId: string,
  request: FailRunRequest,
): RunStatus {
  const lease = store.acquireLease(runId, {
    owner: request.owner,
    ttlMs: request.ttlMs,
    takeOver: holderProcessIsGone,
  });
  try {
    return store.transaction(() => {
      store.requireLease(lease);
      const { status } = store.getRun(runId);
      if (status === 'succeeded' || status === 'failed' || status === 'cancelled') {
        store.releaseLease(lease);
        return status;
      }
      for (const phase of store.phases(runId)) {
        if (phase.status !== 'running') continue;
        // a worker died mid-phase before: the phase ends with the run, not left running for ever
        store.finishPhase(runId, phase.phaseIndex, {
          status: 'failed',
          terminationReason: 'failed',
          episodes: store.episodes(runId, phase.phaseIndex).length,
          error: request.error,
        });
      }
      const summary = summarizeStoredRun(store, runId, { status: 'failed', error: request.error });
      store.finishRun(runId, {
        status: 'failed',
        error: request.error,
        summary: summary as unknown as JsonValue,
      });
      // the outcome and the lease's release commit together: a failed run is never left leased
      store.releaseLease(lease);
      return 'failed' as const;
    });
  } catch (error) {
    try {
      store.releaseLease(lease);
    } catch {
      // the store is away: the lease lapses by itself, and the caller sees the first error
    }
    throw error;
  }
}
