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
