/** A two-sided confidence interval, `low <= high`. */
export interface ConfidenceInterval {
  readonly low: number;
  readonly high: number;
}

/** The confidence level arena reports when none is asked for. */
export const DEFAULT_CONFIDENCE = 0.95;

/**
 * An interval as a person reads it, each end to 4 decimals: `0.68-0.76`, or
 * `-0.12 to 0.5` when the low end is negative (where a dash would read as a minus).
 *
 * @example
 * ```ts
 * formatInterval({ low: 0.68, high: 0.76 }); // '0.68-0.76'
 * formatInterval({ low: -0.12345, high: 0.5 }); // '-0.1235 to 0.5'
 * ```
 */
export function formatInterval(interval: ConfidenceInterval): string {
  const low = roundTo4(interval.low);
  const high = roundTo4(interval.high);
  return low < 0 ? `${low} to ${high}` : `${low}-${high}`;
}

function roundTo4(value: number): number {
  return Number(value.toFixed(4));
}

/**
 * An estimate with its 95% interval and what it counts, as arena prints it:
 * `0.72 (95% CI 0.68-0.76, n 500)`; `n/a` for no estimate, and no interval
 * where there is none (`0.5 (n 1)`). `note` follows the interval
 * (`clustered by 4 cases`).
 *
 * @example
 * ```ts
 * formatEstimate(0.72, { low: 0.68, high: 0.76 }, 500); // '0.72 (95% CI 0.68-0.76, n 500)'
 * formatEstimate(null, null, 0); // 'n/a'
 * ```
 */
export function formatEstimate(
  value: number | null,
  interval: ConfidenceInterval | null,
  n: number,
  note = '',
): string {
  if (value === null) return 'n/a';
  const ci =
    interval === null ? '' : `95% CI ${formatInterval(interval)}${note ? ` ${note}` : ''}, `;
  return `${roundTo4(value)} (${ci}n ${n})`;
}
