import { type BackoffSettings, timerDelayMs } from './settings.js';

/**
 * The rule a worker applies to the fleet's model pauses, which anyone on the
 * bus may have sent: the latest pause for a model replaces the one before it
 * (so a later, shorter pause ends a longer one), and a judge waits out a
 * model's pauses for at most its own back-off cap in each pause window
 * (`pauseWindowMs`), counted from the first pause of the window: repeating a
 * pause does not extend it, so pauses stall a model for at most a quarter of
 * the time, whoever sends them.
 */

/** A model pause as a worker holds it: the latest one for its model, and when it arrived. */
export interface HeldPause {
  /** Epoch ms the pause said it lasts until. */
  readonly untilMs: number;
  /** Epoch ms at which this worker received the first pause of the model's current window. */
  readonly receivedAtMs: number;
}

/** How many back-off caps a pause window lasts: a model is paused for at most one of them. */
export const pauseWindowCaps = 4;

/**
 * The window in which a judge waits out a model's pauses for at most its
 * back-off cap `capMs`: `pauseWindowCaps` caps.
 *
 * @example
 * ```ts
 * pauseWindowMs(4000); // 16000
 * ```
 */
export function pauseWindowMs(capMs: number): number {
  return pauseWindowCaps * timerDelayMs(capMs);
}

/**
 * The pause held after one for the same model arrives at `atMs`: the latest
 * `untilMs` wins, and the window stays the one it arrived in while that
 * window (`windowMs` long) lasts, so a repeat cannot push the end further.
 *
 * @example
 * ```ts
 * heldAfter({ untilMs: 5_000, receivedAtMs: 1_000 }, 9_000, 3_000, 16_000); // { untilMs: 9000, receivedAtMs: 1000 }
 * heldAfter({ untilMs: 5_000, receivedAtMs: 1_000 }, 30_000, 20_000, 16_000); // { untilMs: 30000, receivedAtMs: 20000 }
 * ```
 */
export function heldAfter(
  previous: HeldPause | undefined,
  untilMs: number,
  atMs: number,
  windowMs: number,
): HeldPause {
  const inWindow = previous !== undefined && atMs - previous.receivedAtMs < windowMs;
  return { untilMs, receivedAtMs: inWindow ? previous.receivedAtMs : atMs };
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
 * after the first pause of its window arrived, whatever `untilMs` it claimed.
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
