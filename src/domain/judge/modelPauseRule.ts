import { type BackoffSettings, timerDelayMs } from './settings.js';

/**
 * The rule a worker applies to the fleet's model pauses, which anyone on the
 * bus may have sent: the latest pause for a model replaces the one before it
 * (so a later, shorter pause ends a longer one), and a judge waits out a
 * pause for at most its own back-off cap, counted from when the pause arrived.
 */

/** A model pause as a worker holds it: the latest one for its model, and when it arrived. */
export interface HeldPause {
  /** Epoch ms the pause said it lasts until. */
  readonly untilMs: number;
  /** Epoch ms at which this worker received it. */
  readonly receivedAtMs: number;
}

/**
 * The longest a judge waits out a fleet pause: its back-off's `max_ms`, the
 * longest it ever waits between attempts. A judge without back-off retries
 * at once (the seed's default), so it does not wait for a pause either.
 *
 * @example
 * ```ts
 * pauseCapMs({ initialMs: 250, maxMs: 4000, multiplier: 2, jitter: 0.2 }); // 4000
 * pauseCapMs(null); // 0
 * ```
 */
export function pauseCapMs(backoff: Pick<BackoffSettings, 'maxMs'> | null): number {
  return backoff === null ? 0 : timerDelayMs(backoff.maxMs);
}

/**
 * When a held pause ends for a judge whose back-off cap is `capMs` (epoch
 * ms; 0 for no pause): at the pause's own end, and never more than `capMs`
 * after it arrived, whatever `untilMs` it claimed.
 *
 * @example
 * ```ts
 * pauseEndMs({ untilMs: 3_000, receivedAtMs: 1_000 }, 4_000); // 3000
 * pauseEndMs({ untilMs: 1e15, receivedAtMs: 1_000 }, 4_000); // 5000
 * pauseEndMs(undefined, 4_000); // 0
 * ```
 */
export function pauseEndMs(held: HeldPause | undefined, capMs: number): number {
  if (held === undefined) return 0;
  return Math.min(held.untilMs, held.receivedAtMs + timerDelayMs(capMs));
}
