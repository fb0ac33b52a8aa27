import {
  type HeldPause,
  heldAfter,
  pauseEndMs,
  pauseWindowMs,
} from '../../domain/judge/modelPauseRule.js';
import { timerDelayMs } from '../../domain/judge/settings.js';
import {
  type ModelProvider,
  ProviderAbortedError,
  ProviderRateLimitError,
} from '../../ports/model/modelProvider.js';
import { type JudgeQueue, modelPauseMaxAgeMs } from '../../ports/queue/judgeQueue.js';

/**
 * Pauses of models whose provider answered 429 with `retry-after`, shared by
 * a fleet: a pause one worker meets is announced on the judge queue, and
 * every worker's next attempt on that model waits until it ends. The wait
 * comes before the attempt (its timeout does not run), so a pause never
 * becomes a timeout verdict, and a judgement never makes more attempts than
 * `max_attempts` because of one. What arrives from the
 * queue is not believed: the latest pause for a model wins, and a judge
 * waits at most its own back-off cap (see `pauseEndMs`).
 */
export interface ModelPauses {
  /**
   * Resolve once `key` is not paused for a judge whose back-off cap is
   * `capMs`; reject with `ProviderAbortedError` when `signal` aborts first.
   */
  waitFor(key: string, capMs: number, signal: AbortSignal): Promise<void>;
  /** Pause `key` until `untilMs` (epoch ms) here and, with a queue, on every worker. */
  pause(key: string, untilMs: number): void;
  /** When `key`'s pause ends for a judge whose back-off cap is `capMs` (epoch ms), or 0. */
  pausedUntil(key: string, capMs: number): number;
  /** How many pauses are held: one that has ended is forgotten. */
  heldCount(): number;
  dispose(): void;
}

/** The most pauses a board holds (one per model): past it, the oldest is forgotten. */
export const maxHeldPauses = 1024;

/**
 * A pause board, fed by the queue's pause announcements when there is a queue.
 *
 * @example
 * ```ts
 * const pauses = createModelPauses({ queue });
 * pauses.pause('http://127.0.0.1:8080/v1 gpt-4o-mini', Date.now() + 2000);
 * await pauses.waitFor('http://127.0.0.1:8080/v1 gpt-4o-mini', 4000, signal); // about 2 s, on every worker
 * ```
 */
export function createModelPauses(
  options: { readonly queue?: JudgeQueue; readonly now?: () => number } = {},
): ModelPauses {
  const now = options.now ?? Date.now;
  // insertion order is arrival order: the first entry is the oldest
  const held = new Map<string, HeldPause>();
  // until a judge waits, a pause is kept as long as the queue keeps it
  let longestCapMs: number | null = null;
  // a pause's window, while no judge has waited yet: as long as the queue keeps a pause
  const windowMs = (): number =>
    longestCapMs === null ? modelPauseMaxAgeMs : pauseWindowMs(longestCapMs);
  const forgetEnded = (): void => {
    const at = now();
    const holdMs = longestCapMs ?? modelPauseMaxAgeMs;
    // kept until its window ends too: a pause forgotten earlier would open a new window
    for (const [key, pause] of held) {
      if (pauseEndMs(pause, holdMs) <= at && pause.receivedAtMs + windowMs() <= at)
        held.delete(key);
    }
  };
  const receive = (key: string, untilMs: number): void => {
    if (!Number.isFinite(untilMs)) return;
    forgetEnded();
    const previous = held.get(key);
    held.delete(key);
    held.set(key, heldAfter(previous, untilMs, now(), windowMs()));
    const oldest = held.keys().next();
    if (held.size > maxHeldPauses && oldest.done !== true) held.delete(oldest.value);
  };
  const unsubscribe = options.queue?.onPause((pause) => receive(pause.key, pause.untilMs));
  return {
    pausedUntil: (key, capMs) => pauseEndMs(held.get(key), capMs),
    heldCount() {
      forgetEnded();
      return held.size;
    },
    pause(key, untilMs) {
      receive(key, untilMs);
      options.queue?.announcePause({ key, untilMs });
    },
    async waitFor(key, capMs, signal) {
      longestCapMs = Math.max(longestCapMs ?? 0, timerDelayMs(capMs));
      // a pause may be replaced while waiting: look again after each wait
      for (;;) {
        if (signal.aborted) throw new ProviderAbortedError();
        const left = pauseEndMs(held.get(key), capMs) - now();
        if (left <= 0) {
          forgetEnded();
          return;
        }
        await abortableSleep(left, signal);
      }
    },
    dispose: () => unsubscribe?.(),
  };
}

/**
 * The endpoint and model a pause applies to: two profiles naming the same
 * model on the same server share one rate limit.
 *
 * @example
 * ```ts
 * pauseKeyOf({ base_url: 'http://127.0.0.1:8080/v1', model: 'gpt-4o-mini' }); // 'http://127.0.0.1:8080/v1 gpt-4o-mini'
 * ```
 */
export function pauseKeyOf(profile: {
  readonly base_url?: string;
  readonly model: string;
}): string {
  return `${profile.base_url ?? 'default'} ${profile.model}`;
}

/**
 * A provider that waits out its model's pause before each call, for at most
 * `capMs` (its judge's back-off cap, `pauseCapMs`; in `ready`, before the
 * attempt's timeout starts), and, on a 429 with
 * `retry-after`, pauses the model for the fleet.
 *
 * @example
 * ```ts
 * const provider = pausingProvider(createOpenAIProvider(options), pauseKeyOf(profile), pauses, {
 *   capMs: pauseCapMs(judge.settings.backoff),
 * });
 * ```
 */
export function pausingProvider(
  provider: ModelProvider,
  key: string,
  pauses: ModelPauses,
  options: { readonly capMs: number; readonly now?: () => number },
): ModelProvider {
  const now = options.now ?? Date.now;
  return {
    name: provider.name,
    model: provider.model,
    // the judge waits before an attempt starts, so a pause never eats into the attempt's timeout
    async ready(signal) {
      await provider.ready?.(signal);
      await pauses.waitFor(key, options.capMs, signal);
    },
    async invoke(request) {
      try {
        return await provider.invoke(request);
      } catch (error) {
        if (error instanceof ProviderRateLimitError && error.retryAfterMs !== null) {
          pauses.pause(key, now() + error.retryAfterMs);
        }
        throw error;
      }
    },
  };
}

/** A sleep that ends early on abort; any `ms` is held by the timer (see `timerDelayMs`). */
function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, timerDelayMs(ms));
    signal.addEventListener('abort', done, { once: true });
  });
}
