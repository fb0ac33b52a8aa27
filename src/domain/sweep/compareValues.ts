import type { ObjectiveDirection } from './types.js';

/**
 * How two values of one objective order, best first: negative when `a` is
 * better, positive when `b` is, 0 when they are equal. A missing value
 * (`null`) is worse than any value, and equal to another missing one.
 *
 * @example
 * ```ts
 * compareValues(3, 1, 'maximize'); // negative: 3 is better
 * compareValues(3, 1, 'minimize'); // positive: 1 is better
 * compareValues(null, -1e9, 'maximize'); // positive: any value beats a missing one
 * ```
 */
export function compareValues(
  a: number | null,
  b: number | null,
  direction: ObjectiveDirection,
): number {
  if (a === null || b === null) return (a === null ? 1 : 0) - (b === null ? 1 : 0);
  if (a === b) return 0;
  return (direction === 'maximize' ? a > b : a < b) ? -1 : 1;
}
