import type { JudgeQueue } from '../../ports/judgeQueue.js';
import {
  type ModelProvider,
  ProviderAbortedError,
  ProviderRateLimitError,
} from '../../ports/modelProvider.js';

/**
 * Pauses of models whose provider answered 429 with `retry-after`, shared by
 * a fleet: a pause one worker meets is announced on the judge queue, and
 * every worker's next attempt on that model waits until it ends. The wait is
 * inside the attempt (its timeout runs), so a judgement never makes more
 * attempts than `max_attempts` because of a pause.
 */
export interface ModelPauses {
  /** Resolve once `key` is not paused; reject with `ProviderAbortedError` when `signal` aborts first. */
  waitFor(key: string, signal: AbortSignal): Promise<void>;
  /** Pause `key` until `untilMs` (epoch ms) here and, with a queue, on every worker. */
  pause(key: string, untilMs: number): void;
  /** When `key` is paused until, or 0. */
  pausedUntil(key: string): number;
  dispose(): void;
}

/**
 * A pause board, fed by the queue's pause announcements when there is a queue.
 *
 * @example
 * ```ts
 * const pauses = createModelPauses({ queue });
 * pauses.pause('http://127.0.0.1:8080/v1 gpt-4o-mini', Date.now() + 2000); // every worker waits 2 s
 * ```
 */
export function createModelPauses(
  options: { readonly queue?: JudgeQueue; readonly now?: () => number } = {},
): ModelPauses {
  const now = options.now ?? Date.now;
  const until = new Map<string, number>();
  const extend = (key: string, untilMs: number): void => {
    if (untilMs > (until.get(key) ?? 0)) until.set(key, untilMs);
  };
  const unsubscribe = options.queue?.onPause((pause) => extend(pause.key, pause.untilMs));
  return {
    pausedUntil: (key) => until.get(key) ?? 0,
    pause(key, untilMs) {
      extend(key, untilMs);
      options.queue?.announcePause({ key, untilMs });
    },
    async waitFor(key, signal) {
      // a pause may be extended while waiting: look again after each wait
      for (;;) {
        if (signal.aborted) throw new ProviderAbortedError();
        const left = (until.get(key) ?? 0) - now();
        if (left <= 0) return;
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
 * A provider that waits out its model's pause before each call and, on a 429
 * with `retry-after`, pauses the model for the fleet.
 *
 * @example
 * ```ts
 * const provider = pausingProvider(createOpenAIProvider(options), pauseKeyOf(profile), pauses);
 * ```
 */
export function pausingProvider(
  provider: ModelProvider,
  key: string,
  pauses: ModelPauses,
  now: () => number = Date.now,
): ModelProvider {
  return {
    name: provider.name,
    model: provider.model,
    async invoke(request) {
      await pauses.waitFor(key, request.signal);
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
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
