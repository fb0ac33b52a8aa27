/**
 * A short, readable rendering of a bad input value for an error message:
 * JSON for scalars, `a mapping` or `a list` for containers, `nothing` for a
 * missing value.
 *
 * @example
 * ```ts
 * describeValue(true); // 'true'
 * describeValue('up'); // '"up"'
 * describeValue(Number.NaN); // 'NaN'
 * describeValue([1]); // 'a list'
 * describeValue(undefined); // 'nothing'
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'a mapping';
  return JSON.stringify(value) ?? String(value);
}
