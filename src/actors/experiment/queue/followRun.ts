import {
  type StatusHintBus,
  statusPollMs,
  statusSafetyNetMs,
  statusWake,
} from '../../../ports/queue/statusHints.js';
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
  /** How often to look besides the hints; default 5 s with a queue that tells (`queue`), else 250 ms. */
  readonly pollMs?: number;
  /** Where workers tell of the run's changes (the run queue's `onStatus`): each hint is a look, never believed on its own. */
  readonly queue?: StatusHintBus;
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
 * moves between workers or the queue's server restarts: a worker's hint on
 * `queue` (at most twice a second) only makes it look now, and it looks
 * every `pollMs` besides, as a hint may be lost or refused.
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
  const listen = options.queue?.onStatus?.bind(options.queue);
  const pollMs = options.pollMs ?? (listen !== undefined ? statusSafetyNetMs : statusPollMs);
  const wake = statusWake();
  // heard before the first read: no change between the two is missed
  const stopListening = listen?.(runId, wake.hear);
  try {
    return await following(store, runId, options, pollMs, wake);
  } finally {
    stopListening?.();
  }
}

async function following(
  store: RunStore,
  runId: string,
  options: FollowRunOptions,
  pollMs: number,
  wake: ReturnType<typeof statusWake>,
): Promise<RunRecord | null> {
  for (;;) {
    if (options.signal?.aborted === true) return null;
    wake.reading();
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
    await wake.pause(pollMs, options.signal);
  }
}
