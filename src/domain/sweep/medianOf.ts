/**
 * The median of the values present (`null`s left out): the middle one, or
 * the mean of the two middle ones for an even count; `null` if none is present.
 *
 * @example
 * ```ts
 * medianOf([4, null, 1, 3]); // 3
 * medianOf([4, 1, 3, 2]); // 2.5
 * medianOf([null]); // null
 * ```
 */
export function medianOf(values: readonly (number | null)[]): number | null {
  const present = values.filter((value) => value !== null).sort((a, b) => a - b);
  if (present.length === 0) return null;
  const upper = present[present.length >> 1]!;
  if (present.length % 2 === 1) return upper;
  const lower = present[(present.length >> 1) - 1]!;
  const mean = (lower + upper) / 2;
  // Two huge values overflow their sum; halving first cannot.
  return Number.isFinite(mean) ? mean : lower / 2 + upper / 2;
}
