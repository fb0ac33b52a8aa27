import type { RunSpec } from '../../../config/runSpec.js';
import type { RunQueue } from '../../../ports/queue/runQueue.js';
import type { RunStore } from '../../../ports/store/store.js';
import { newRunOf } from '../newRun.js';

/** What `submitRun` needs: where the run is recorded and where it is queued. */
export interface SubmitRunOptions {
  readonly store: RunStore;
  readonly queue: RunQueue;
  /** The run file's text, stored with the run; default `spec.sourceText`. */
  readonly runFileText?: string;
}

/** A submitted run. */
export interface SubmittedRun {
  readonly runId: string;
  /** The queue already held this run id (nothing was added to it). */
  readonly duplicate: boolean;
}

/**
 * Record a validated run as `queued` (with its run file's and user modules'
 * hashes, as `runExperiment` records a run it starts) and put its id on the
 * queue. A run the queue refuses is marked `failed` with the reason, so the
 * store never holds a queued run that no worker will ever see.
 *
 * @example
 * ```ts
 * const spec = await validateRunFileText(text, { sourcePath, builtins: builtinComponents });
 * const { runId } = await submitRun(spec, { store, queue, runFileText: text });
 * store.getRun(runId).status; // 'queued'
 * ```
 */
export async function submitRun(spec: RunSpec, options: SubmitRunOptions): Promise<SubmittedRun> {
  const { store, queue } = options;
  const run = await newRunOf(spec, options.runFileText);
  const { runId } = store.createRun({ ...run, status: 'queued' });
  try {
    const { duplicate } = await queue.submit(runId);
    return { runId, duplicate };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    store.finishRun(runId, { status: 'failed', error: `could not be queued: ${reason}` });
    throw error;
  }
}
