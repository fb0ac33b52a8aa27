import path from 'node:path';
import { hashFiles, sha256Hex, userModuleFiles } from '../../config/moduleFingerprints.js';
import type { RunSpec } from '../../config/runSpec.js';
import type { RunQueue } from '../../ports/runQueue.js';
import type { RunStore } from '../../ports/store.js';

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
  const runFile = options.runFileText ?? spec.sourceText;
  const modules = await hashFiles(userModuleFiles(spec));
  const { runId } = store.createRun({
    uid: spec.uid,
    seed: spec.seed,
    runFile,
    runFilePath: path.resolve(spec.sourcePath),
    runFileSha256: sha256Hex(runFile),
    modules: modules.flatMap(({ file, sha256 }) => (sha256 === null ? [] : [{ file, sha256 }])),
    status: 'queued',
  });
  try {
    const { duplicate } = await queue.submit(runId);
    return { runId, duplicate };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    store.finishRun(runId, { status: 'failed', error: `could not be queued: ${reason}` });
    throw error;
  }
}
