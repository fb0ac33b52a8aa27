import type { Rng } from '../../domain/shared/random.js';
import { clipToSpace, type Space } from '../../domain/shared/spaces.js';

/**
 * The affine frame of a space: `center` and `halfRange` such that
 * `center ± halfRange` spans its finite bounds. A Discrete space spans its
 * smallest to largest value; an unbounded Box side counts as `center ± 1`.
 *
 * @example
 * ```ts
 * spaceFrame({ type: 'Box', low: 0, high: 1 }); // { center: 0.5, halfRange: 0.5 }
 * spaceFrame({ type: 'Box', low: -Infinity, high: Infinity }); // { center: 0, halfRange: 1 }
 * ```
 */
export function spaceFrame(space: Space): { center: number; halfRange: number } {
  const low = space.type === 'Box' ? space.low : Math.min(...space.values);
  const high = space.type === 'Box' ? space.high : Math.max(...space.values);
  if (Number.isFinite(low) && Number.isFinite(high)) {
    return { center: (low + high) / 2, halfRange: (high - low) / 2 };
  }
  if (Number.isFinite(low)) return { center: low + 1, halfRange: 1 };
  if (Number.isFinite(high)) return { center: high - 1, halfRange: 1 };
  return { center: 0, halfRange: 1 };
}

/**
 * A uniform sample of `space`: uniform in a finite Box, one of a Discrete's
 * values with equal chance, and uniform within `spaceFrame` on an unbounded Box.
 *
 * @example
 * ```ts
 * sampleSpace({ type: 'Discrete', n: 2, values: [1, 4] }, createRng(1)); // 1 or 4
 * ```
 */
export function sampleSpace(space: Space, rng: Rng): number {
  if (space.type === 'Discrete') return space.values[rng.int(space.values.length)] ?? 0;
  const { center, halfRange } = spaceFrame(space);
  return clipToSpace(space, rng.uniform(center - halfRange, center + halfRange));
}
