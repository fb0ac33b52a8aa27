/**
 * Scalar spaces of sensors and actuators, as plain JSON.
 *
 * - `Box`: a continuous interval `[low, high]` (bounds may be infinite only for
 *   rewards such as the meta agent's `.return`).
 * - `Discrete`: a finite, ordered set of allowed values (`values[i]` is what
 *   index `i` means; `n === values.length`).
 *
 * @example
 * ```ts
 * contains({ type: 'Box', low: 0, high: 1 }, 0.5); // true
 * contains({ type: 'Discrete', n: 2, values: [1, 4] }, 2); // false
 * ```
 */
export type Space = BoxSpace | DiscreteSpace;

/** A continuous interval `[low, high]`. */
export interface BoxSpace {
  readonly type: 'Box';
  readonly low: number;
  readonly high: number;
}

/** A finite, ordered set of allowed values; `n === values.length`. */
export interface DiscreteSpace {
  readonly type: 'Discrete';
  readonly n: number;
  readonly values: readonly number[];
}

/**
 * Whether `value` is a finite member of `space`.
 *
 * @example
 * ```ts
 * contains({ type: 'Box', low: 0, high: 1 }, 0.5); // true
 * contains({ type: 'Box', low: 0, high: 1 }, 2); // false
 * ```
 */
export function contains(space: Space, value: number): boolean {
  if (typeof value !== 'number' || Number.isNaN(value)) return false;
  if (space.type === 'Box') return value >= space.low && value <= space.high;
  return Number.isFinite(value) && space.values.includes(value);
}

/**
 * The nearest member of `space` to `value` (clip a Box; nearest value of a Discrete).
 *
 * @example
 * ```ts
 * clipToSpace({ type: 'Box', low: 0, high: 1 }, 2); // 1
 * clipToSpace({ type: 'Discrete', n: 3, values: [0, 5, 10] }, 6); // 5
 * ```
 */
export function clipToSpace(space: Space, value: number): number {
  if (space.type === 'Box') {
    if (Number.isNaN(value)) return Math.max(space.low, Math.min(space.high, 0));
    return Math.max(space.low, Math.min(space.high, value));
  }
  let best = space.values[0] ?? 0;
  for (const candidate of space.values) {
    if (Math.abs(candidate - value) < Math.abs(best - value)) best = candidate;
  }
  return best;
}
