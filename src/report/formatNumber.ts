/**
 * A number as a person reads it in a report: at most six significant digits,
 * without trailing zeros, so `0.95` stays `0.95` and a long float is cut short.
 *
 * @example
 * ```ts
 * formatNumber(17.046957214199626); // '17.047'
 * formatNumber(0.95); // '0.95'
 * formatNumber(1234567); // '1234570'
 * ```
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return String(Number(value.toPrecision(6)));
}
