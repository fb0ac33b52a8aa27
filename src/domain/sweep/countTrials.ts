import type { SweepSpec } from './types.js';

/** How many trials a sweep may expand to unless told otherwise (`--max-trials`). */
export const DEFAULT_MAX_TRIALS = 10_000;

/**
 * How many trials a sweep's search makes, counted before anything is expanded:
 * a grid's is the product of its parameters' value counts (a range counts 1:
 * `expandTrials` refuses it on a grid), a random search's its `trials`. A
 * product past 2^53 is `Infinity`, never a rounded count.
 *
 * @example
 * ```ts
 * countTrials({ search: { kind: 'grid' }, parameters: [
 *   { kind: 'values', pointer: '/a', values: [1, 2, 3] },
 *   { kind: 'values', pointer: '/b', values: [true, false] },
 * ] }); // 6
 * countTrials({ search: { kind: 'random', trials: 50 }, parameters: [] }); // 50
 * ```
 */
export function countTrials(spec: Pick<SweepSpec, 'parameters' | 'search'>): number {
  if (spec.search.kind === 'random') return spec.search.trials;
  let count = 1;
  for (const parameter of spec.parameters) {
    count *= parameter.kind === 'values' ? parameter.values.length : 1;
    if (count > Number.MAX_SAFE_INTEGER) return Number.POSITIVE_INFINITY;
  }
  return count;
}
