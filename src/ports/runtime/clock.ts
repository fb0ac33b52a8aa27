/**
 * Time, injected. `now()` is wall-clock time for timestamps; `monotonicMs()`
 * only ever grows and is what durations are measured with.
 *
 * @example
 * ```ts
 * const clock = fixedClock(new Date('2026-01-01T00:00:00Z'));
 * clock.now().toISOString(); // '2026-01-01T00:00:00.000Z'
 * ```
 */
export interface Clock {
  /** The current wall-clock time. */
  now(): Date;
  /** Milliseconds on a clock that never goes backwards. */
  monotonicMs(): number;
}

/**
 * The process's clocks: `Date` and `performance.now()`.
 *
 * @example
 * ```ts
 * systemClock.now(); // the current Date
 * ```
 */
export const systemClock: Clock = {
  now: () => new Date(),
  monotonicMs: () => performance.now(),
};

/** A clock that stands still until `advance(ms)` moves it (for tests). */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

/**
 * A clock frozen at `start`, moved only by `advance`.
 *
 * @example
 * ```ts
 * const clock = fixedClock();
 * clock.advance(1500);
 * clock.monotonicMs(); // 1500
 * clock.now().toISOString(); // '1970-01-01T00:00:01.500Z'
 * ```
 */
export function fixedClock(start: Date = new Date(0)): ManualClock {
  let offset = 0;
  return {
    now: () => new Date(start.getTime() + offset),
    monotonicMs: () => offset,
    advance: (ms: number) => {
      offset += ms;
    },
  };
}
