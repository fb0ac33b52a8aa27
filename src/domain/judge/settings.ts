import { JudgeConfigurationError } from './errors.js';

/**
 * The longest delay a timer can hold (2^31 − 1 ms, about 24.8 days): Node
 * fires a longer one at once, with a `TimeoutOverflowWarning`.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * A delay any timer can hold, whatever number it was handed (a remote one
 * included): NaN and negatives are 0, longer than `MAX_TIMER_MS` is cut to it.
 *
 * @example
 * ```ts
 * timerDelayMs(1e12); // 2147483647
 * timerDelayMs(Number.NaN); // 0
 * timerDelayMs(250); // 250
 * ```
 */
export function timerDelayMs(ms: number): number {
  return ms > 0 ? Math.min(MAX_TIMER_MS, ms) : 0;
}

/** Opt-in exponential backoff between attempts (the default retries at once). */
export interface BackoffSettings {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly multiplier: number;
  /** 0..1: the delay is drawn from [delay × (1 − jitter), delay]. */
  readonly jitter: number;
}

/** The checked identity and bounds of a judge. */
export interface JudgeSettings {
  readonly name: string;
  readonly judgeVersion: string;
  readonly rubric: string;
  readonly rubricVersion: string;
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly allowSelfEvaluation: boolean;
  readonly maxInputTokens: number | null;
  readonly maxCostUsd: number | null;
  readonly backoff: BackoffSettings | null;
}

/** What a caller passes; defaults as in the seed (60 s, 2 attempts). */
export interface JudgeSettingsInput {
  readonly name: string;
  readonly judgeVersion: string;
  readonly rubric: string;
  readonly rubricVersion: string;
  readonly timeoutMs?: number;
  readonly maxAttempts?: number;
  readonly allowSelfEvaluation?: boolean;
  readonly maxInputTokens?: number | null;
  readonly maxCostUsd?: number | null;
  readonly backoff?: BackoffSettings | null;
}

/**
 * Check a judge's settings with the seed's rules: non-empty names and versions,
 * a positive timeout, 1–100 attempts, positive limits; and a sane backoff.
 * Every duration must fit a timer (at most `MAX_TIMER_MS`).
 *
 * @example
 * ```ts
 * judgeSettings({ name: 'j', judgeVersion: '1', rubric: 'r', rubricVersion: '1' }).timeoutMs; // 60000
 * judgeSettings({ name: ' ', judgeVersion: '1', rubric: 'r', rubricVersion: '1' });
 * // throws JudgeConfigurationError('name must be non-empty')
 * ```
 */
export function judgeSettings(input: JudgeSettingsInput): JudgeSettings {
  for (const field of ['name', 'judgeVersion', 'rubric', 'rubricVersion'] as const) {
    const value = input[field];
    if (typeof value !== 'string' || value.trim() === '') {
      throw new JudgeConfigurationError(`${field} must be non-empty`);
    }
  }
  const timeoutMs = input.timeoutMs ?? 60_000;
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs))) {
    throw new JudgeConfigurationError(`timeoutMs must be positive, got ${String(timeoutMs)}`);
  }
  checkTimerHolds('timeoutMs', timeoutMs);
  const maxAttempts = input.maxAttempts ?? 2;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100) {
    throw new JudgeConfigurationError(
      `maxAttempts must be an integer between 1 and 100, got ${String(maxAttempts)}`,
    );
  }
  const maxInputTokens = input.maxInputTokens ?? null;
  if (maxInputTokens !== null && !(Number.isInteger(maxInputTokens) && maxInputTokens > 0)) {
    throw new JudgeConfigurationError(
      `maxInputTokens must be a positive integer, got ${String(maxInputTokens)}`,
    );
  }
  const maxCostUsd = input.maxCostUsd ?? null;
  if (
    maxCostUsd !== null &&
    !(typeof maxCostUsd === 'number' && maxCostUsd > 0 && Number.isFinite(maxCostUsd))
  ) {
    throw new JudgeConfigurationError(`maxCostUsd must be positive, got ${String(maxCostUsd)}`);
  }
  return {
    name: input.name,
    judgeVersion: input.judgeVersion,
    rubric: input.rubric,
    rubricVersion: input.rubricVersion,
    timeoutMs,
    maxAttempts,
    allowSelfEvaluation: input.allowSelfEvaluation ?? false,
    maxInputTokens,
    maxCostUsd,
    backoff: input.backoff ? checkedBackoff(input.backoff) : null,
  };
}

function checkTimerHolds(field: string, ms: number): void {
  if (ms > MAX_TIMER_MS) {
    throw new JudgeConfigurationError(
      `${field} must be at most ${MAX_TIMER_MS} ms (the longest a timer can wait, about 24.8 days), got ${ms}`,
    );
  }
}

function checkedBackoff(backoff: BackoffSettings): BackoffSettings {
  const { initialMs, maxMs, multiplier, jitter } = backoff;
  if (!(initialMs > 0 && Number.isFinite(initialMs))) {
    throw new JudgeConfigurationError(
      `backoff.initialMs must be positive, got ${String(initialMs)}`,
    );
  }
  if (!(maxMs >= initialMs && Number.isFinite(maxMs))) {
    throw new JudgeConfigurationError(
      `backoff.maxMs must be at least initialMs, got ${String(maxMs)}`,
    );
  }
  checkTimerHolds('backoff.maxMs', maxMs);
  if (!(multiplier >= 1 && Number.isFinite(multiplier))) {
    throw new JudgeConfigurationError(
      `backoff.multiplier must be at least 1, got ${String(multiplier)}`,
    );
  }
  if (!(jitter >= 0 && jitter <= 1)) {
    throw new JudgeConfigurationError(
      `backoff.jitter must be between 0 and 1, got ${String(jitter)}`,
    );
  }
  return { initialMs, maxMs, multiplier, jitter };
}

/**
 * The delay before attempt `failedAttempt + 1`: exponential, capped at
 * `maxMs`, with jitter drawn from `random` (a seeded rng's `next`), and never
 * shorter than a provider's retry-after that fits within `maxMs`. A longer
 * retry-after is not waited for: the failed attempt stays a failure and the
 * next one comes after the ordinary delay, so no wait ever exceeds `maxMs`.
 *
 * @example
 * ```ts
 * const backoff = { initialMs: 100, maxMs: 1000, multiplier: 2, jitter: 0 };
 * retryDelayMs(backoff, 3, () => 0.5, null); // 400
 * retryDelayMs(backoff, 1, () => 0.5, 800); // 800
 * retryDelayMs(backoff, 1, () => 0.5, 999_999_000); // 100
 * ```
 */
export function retryDelayMs(
  backoff: BackoffSettings,
  failedAttempt: number,
  random: () => number,
  retryAfterMs: number | null,
): number {
  const exponential = Math.min(
    backoff.maxMs,
    backoff.initialMs * backoff.multiplier ** Math.max(0, failedAttempt - 1),
  );
  const jittered = exponential * (1 - backoff.jitter * random());
  return Math.max(jittered, honouredRetryAfterMs(retryAfterMs, backoff.maxMs));
}

/** A retry-after the backoff can wait for: finite, non-negative and at most `maxMs`; else 0. */
function honouredRetryAfterMs(retryAfterMs: number | null, maxMs: number): number {
  if (retryAfterMs === null || !Number.isFinite(retryAfterMs)) return 0;
  return retryAfterMs >= 0 && retryAfterMs <= maxMs ? retryAfterMs : 0;
}
