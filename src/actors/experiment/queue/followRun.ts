import { defaultServerPatienceMs, withPatience } from '../../../ports/runtime/serverFailure.js';
import type {
  EpisodeSummary,
  PhaseRecord,
  RunRecord,
  RunStore,
} from '../../../ports/store/store.js';

/** What a follower sees of a run at one look into the store. */
export interface RunProgressView {
  readonly run: RunRecord;
  readonly phases: readonly PhaseRecord[];
  readonly episodes: readonly EpisodeSummary[];
}

/** How `followRun` looks. */
export interface FollowRunOptions {
  /** How often to look; default 250 ms. */
  readonly pollMs?: number;
  /** Aborting it stops following (the run goes on); `followRun` then resolves with `null`. */
  readonly signal?: AbortSignal;
  /** Called at every look, with what the store holds then. */
  readonly onProgress?: (view: RunProgressView) => void;
  /** How long a lost store server is waited for before `ServerUnavailableError`; default `defaultServerPatienceMs`. */
  readonly serverPatienceMs?: number;
}

/**
 * Follow a run in the store, wherever it runs, until it has ended
 * (`succeeded`, `failed` or `cancelled`), and resolve with its record. A run
 * handed back by a worker stays `running` and is followed on. Reads the
 * store, not the workers' messages, so it sees the same run however often it
 * moves between workers or the queue's server restarts.
 *
 * @example
 * ```ts
 * const ended = await followRun(store, runId, { onProgress: ({ phases }) => draw(phases) });
 * ended?.status; // 'succeeded'
 * ```
 */
export async function followRun(
  store: RunStore,
  runId: string,
  options: FollowRunOptions = {},
): Promise<RunRecord | null> {
  const pollMs = options.pollMs ?? 250;
  for (;;) {
    if (options.signal?.aborted === true) return null;
    // plain reads, no transaction: a store transaction takes the write lock the workers need;
    // a server restart is waited out (the run goes on in the workers)
    const view = await withPatience(
      () => ({
        run: store.getRun(runId),
        phases: store.phases(runId),
        episodes: store.episodeSummary(runId),
      }),
      {
        what: 'the run store',
        patienceMs: options.serverPatienceMs ?? defaultServerPatienceMs,
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      },
    ).catch((error: unknown) => {
      if (options.signal?.aborted === true) return null;
      throw error;
    });
    if (view === null) return null;
    options.onProgress?.(view);
    if (['succeeded', 'failed', 'cancelled'].includes(view.run.status)) return view.run;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      options.signal?.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', done);
        resolve();
      }
    });
  }
}
