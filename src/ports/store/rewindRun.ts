import type { RunStore, SnapshotRecord } from './store.js';
import { NothingToResumeError } from './storeErrors.js';

/**
 * Prepare a stored run for `--resume`: find its latest snapshot, delete every
 * record written after it (`truncateAfter`) and return it, so the runner
 * restores that state and writes on as if it had never stopped. A run that
 * stopped before its first resume point is rewound to its start and `null`
 * returned: the runner starts it again under the same id. A run that
 * succeeded throws `NothingToResumeError`.
 *
 * @example
 * ```ts
 * const snapshot = rewindToLatestSnapshot(store, 'grid-demo-20261129T200702-3fa2');
 * snapshot.episode; // 3
 * store.getRun(snapshot.runId).status; // 'running'
 * ```
 */
export function rewindToLatestSnapshot(store: RunStore, runId: string): SnapshotRecord | null {
  const run = store.getRun(runId);
  if (run.status === 'succeeded') {
    throw new NothingToResumeError(runId, 'it already succeeded');
  }
  const snapshot = store.latestSnapshot(runId);
  if (snapshot === null) {
    store.rewindToStart(runId);
    return null;
  }
  store.truncateAfter(runId, { phaseIndex: snapshot.phaseIndex, episode: snapshot.episode });
  return snapshot;
}
