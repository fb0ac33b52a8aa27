import { JudgeResponseError } from './errors.js';

/** Token counts of one response, or summed over attempts. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly totalTokens: number;
}

/** Usage as a provider reports it: the counts it knows; a missing or `null` count is 0. */
export interface ReportedUsage {
  readonly inputTokens?: number | null;
  readonly outputTokens?: number | null;
  readonly reasoningTokens?: number | null;
  readonly cacheReadTokens?: number | null;
  readonly cacheWriteTokens?: number | null;
  readonly totalTokens?: number | null;
}

/**
 * Normalise reported usage: a missing count is 0, as in the seed's usage
 * object, and the total is at least input + output, as the seed's `_usage`
 * makes it. Unlike `_usage`, which drops cache read/write counts to 0, they are
 * kept: cost accounting needs them (README: deliberate differences).
 *
 * @example
 * ```ts
 * normaliseUsage({ inputTokens: 10, outputTokens: 5, totalTokens: 12, cacheReadTokens: 4 });
 * // { inputTokens: 10, outputTokens: 5, reasoningTokens: 0, cacheReadTokens: 4, cacheWriteTokens: 0, totalTokens: 15 }
 * normaliseUsage({ outputTokens: 1 });
 * // { inputTokens: 0, outputTokens: 1, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 1 }
 * ```
 */
export function normaliseUsage(reported: ReportedUsage): TokenUsage {
  const inputTokens = count(reported.inputTokens, 'inputTokens');
  const outputTokens = count(reported.outputTokens, 'outputTokens');
  return {
    inputTokens,
    outputTokens,
    reasoningTokens: count(reported.reasoningTokens, 'reasoningTokens'),
    cacheReadTokens: count(reported.cacheReadTokens, 'cacheReadTokens'),
    cacheWriteTokens: count(reported.cacheWriteTokens, 'cacheWriteTokens'),
    totalTokens: Math.max(count(reported.totalTokens, 'totalTokens'), inputTokens + outputTokens),
  };
}

/** A reported count: absent (or null) is 0; anything but a non-negative integer is invalid. */
function count(reported: unknown, field: string): number {
  const value = reported ?? 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new JudgeResponseError(`judge response usage.${field} must be a non-negative integer`);
  }
  return value;
}

/**
 * Sum usage over attempts; `null` means "no attempt reported usage".
 *
 * @example
 * ```ts
 * addUsage(null, usage) === usage; // true
 * addUsage(a, null) === a; // true
 * ```
 */
export function addUsage(
  current: TokenUsage | null,
  additional: TokenUsage | null,
): TokenUsage | null {
  if (additional === null) return current;
  if (current === null) return additional;
  return {
    inputTokens: current.inputTokens + additional.inputTokens,
    outputTokens: current.outputTokens + additional.outputTokens,
    reasoningTokens: current.reasoningTokens + additional.reasoningTokens,
    cacheReadTokens: current.cacheReadTokens + additional.cacheReadTokens,
    cacheWriteTokens: current.cacheWriteTokens + additional.cacheWriteTokens,
    totalTokens: current.totalTokens + additional.totalTokens,
  };
}

/**
 * Check a response's reported cost: absent is `null`; otherwise it must be a
 * finite, non-negative number (a boolean is not a number).
 *
 * @example
 * ```ts
 * responseCost(undefined); // null
 * responseCost(0.002); // 0.002
 * responseCost(true); // throws JudgeResponseError('judge response cost must be numeric')
 * ```
 */
export function responseCost(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number')
    throw new JudgeResponseError('judge response cost must be numeric');
  if (!Number.isFinite(value) || value < 0) {
    throw new JudgeResponseError('judge response cost must be finite and non-negative');
  }
  return value;
}

/** USD per one million tokens, by direction. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

/**
 * Cost in USD of one response's usage under a price.
 *
 * @example
 * ```ts
 * costFromPrice({ inputTokens: 1000, outputTokens: 500 }, { inputPerMillion: 0.15, outputPerMillion: 0.6 });
 * // 0.00045
 * ```
 */
export function costFromPrice(
  usage: Pick<TokenUsage, 'inputTokens' | 'outputTokens'>,
  price: ModelPrice,
): number {
  return (
    (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) /
    1_000_000
  );
}
