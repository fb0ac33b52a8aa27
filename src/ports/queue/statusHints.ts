/**
 * Status hints: a worker tells whoever follows a run (an evaluation run, an
 * experiment run, a sweep's trial) that it changed, and the follower reads
 * the store at once instead of at its next poll. A hint is never believed on
 * its own: the follower acts only on what the store says, and polls slowly
 * besides, so a lost or refused hint costs at most one safety-net interval.
 */

/** Where status hints travel: a queue that can tell and hear them (both optional: absent, the follower polls). */
export interface StatusHintBus {
  /** Tell a run's followers that it changed; a hint only, never believed without a store read. */
  announceStatus?(id: string): void;
  /** Hear a run's hints; returns how to stop. Absent or refused, the follower polls the store. */
  onStatus?(id: string, listener: () => void): () => void;
}

/**
 * How often a follower reads the store when workers tell it of every change: a safety net only.
 *
 * @example
 * ```ts
 * statusSafetyNetMs; // 5000
 * ```
 */
export const statusSafetyNetMs = 5000;

/** How often a follower reads the store when nobody tells it of changes. */
export const statusPollMs = 250;

/** How often a worker tells a run's followers that it moved, at most. */
export const statusHintMs = 500;

/** The least time between two reads of a followed run, however often it is told of a change. */
const followReadGapMs = 250;

/**
 * A run's status hints, throttled per run: the first change after a quiet
 * spell is told at once, the rest once per `everyMs`, the last of a burst
 * always (so a follower hears of the last change within `everyMs`); `now`
 * tells at once (a run that ended, was held or handed back).
 *
 * @example
 * ```ts
 * const hints = throttledStatusHints((runId) => queue.announceStatus?.(runId));
 * hints.touch(runId); // told now; further touches within 500 ms are told once, at its end
 * hints.now(runId); // told now, whatever the throttle
 * hints.flush(); // on stop: a burst's last change told, no timer left
 * ```
 */
export function throttledStatusHints(
  announce: (id: string) => void,
  everyMs = statusHintMs,
): { touch(id: string): void; now(id: string): void; flush(): void } {
  const timers = new Map<string, { timer: NodeJS.Timeout; again: boolean }>();
  const tell = (id: string): void => {
    try {
      announce(id);
    } catch {
      // a hint only: the follower's slow poll finds the run
    }
  };
  const quiet = (id: string): void => {
    const held = timers.get(id);
    if (held === undefined) return;
    if (!held.again) {
      timers.delete(id);
      return;
    }
    tell(id);
    held.again = false;
    held.timer = setTimeout(() => quiet(id), everyMs);
  };
  return {
    touch(id) {
      const held = timers.get(id);
      if (held !== undefined) {
        held.again = true;
        return;
      }
      tell(id);
      timers.set(id, { timer: setTimeout(() => quiet(id), everyMs), again: false });
    },
    now(id) {
      const held = timers.get(id);
      if (held !== undefined) clearTimeout(held.timer);
      timers.delete(id);
      tell(id);
    },
    flush() {
      for (const [id, held] of timers) {
        clearTimeout(held.timer);
        if (held.again) tell(id);
      }
      timers.clear();
    },
  };
}

/**
 * A follower's wait between two reads of the store: it ends after `pollMs`,
 * when `signal` aborts, or when a hint was heard (`hear`) since the last
 * read began (`reading`); two reads stay at least 250 ms apart however
 * often hints come.
 *
 * @example
 * ```ts
 * const wake = statusWake();
 * const stop = queue.onStatus?.(runId, wake.hear); // heard before the first read: no change is missed
 * for (;;) {
 *   wake.reading();
 *   const run = store.getRun(runId);
 *   if (run.status !== 'running') break;
 *   await wake.pause(5000, signal);
 * }
 * stop?.();
 * ```
 */
export function statusWake(): {
  hear(): void;
  reading(): void;
  pause(pollMs: number, signal?: AbortSignal): Promise<void>;
} {
  let told = false;
  let readAtMs = Date.now();
  let wake: (() => void) | null = null;
  return {
    hear() {
      told = true;
      wake?.();
    },
    reading() {
      told = false;
      readAtMs = Date.now();
    },
    async pause(pollMs, signal) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          wake = null;
          resolve();
        };
        const timer = setTimeout(done, pollMs);
        signal?.addEventListener('abort', done, { once: true });
        wake = done;
        if (told || signal?.aborted === true) done();
      });
      const gap = readAtMs + followReadGapMs - Date.now();
      if (gap > 0 && signal?.aborted !== true) {
        await new Promise((resolve) => setTimeout(resolve, gap));
      }
    },
  };
}
