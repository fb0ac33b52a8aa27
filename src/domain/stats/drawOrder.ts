import { createRng, deriveSeed } from '../shared/random.js';
import { StatisticsInputError } from './errors.js';

/**
 * The order in which a file's `total` cases are drawn: a seeded uniform
 * permutation (Fisher-Yates over `createRng(seed)`), fixed before the first
 * case is judged, the same on every machine. `order[i]` is the index (in file
 * order) of the i-th case drawn.
 *
 * @throws StatisticsInputError when `total` is not a non-negative integer or `seed` not a 32-bit unsigned integer.
 * @example
 * ```ts
 * [...drawOrder(5, 7)]; // [3, 1, 2, 4, 0]
 * ```
 */
export function drawOrder(total: number, seed: number): Uint32Array {
  if (!Number.isSafeInteger(total) || total < 0 || total > 0xffffffff) {
    throw new StatisticsInputError(`a draw order needs a count of cases, got ${total}`);
  }
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new StatisticsInputError(`a draw order's seed is an integer in [0, 2^32), got ${seed}`);
  }
  const rng = createRng(seed);
  const order = new Uint32Array(total);
  for (let i = 0; i < total; i++) order[i] = i;
  for (let i = total - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const held = order[i]!;
    order[i] = order[j]!;
    order[j] = held;
  }
  return order;
}

/**
 * The draw order's seed when none is given: derived from the evaluation run id,
 * so the same run always draws in the same order.
 *
 * @example
 * ```ts
 * drawSeedOf('judge-1a2b3c4d5e6f') === drawSeedOf('judge-1a2b3c4d5e6f'); // true
 * ```
 */
export function drawSeedOf(runId: string): number {
  return deriveSeed(0, `draw-order:${runId}`);
}
