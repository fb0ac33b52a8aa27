/**
 * A small, fast, seeded pseudo-random generator (mulberry32). Every random
 * choice in a run flows from the run file's `seed` through one of these;
 * `Math.random()` is never used in a run.
 *
 * @example
 * ```ts
 * const rng = createRng(42);
 * rng.next(); // 0.6011037519201636, the same on every machine
 * ```
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [low, high). */
  uniform(low: number, high: number): number;
  /** Standard normal (Box-Muller). */
  normal(): number;
  /** Integer in [0, n). */
  int(n: number): number;
  /** The generator's state, to persist and restore it exactly. */
  state(): number;
}

/**
 * A seeded generator from `seed` (or from a saved `state()`, to continue exactly where it stopped).
 *
 * @example
 * ```ts
 * const rng = createRng(42);
 * const saved = rng.state();
 * createRng(42, saved).next() === rng.next(); // true
 * ```
 */
export function createRng(seed: number, state?: number): Rng {
  let s = (state ?? seed) >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    uniform: (low, high) => low + (high - low) * next(),
    normal: () => {
      const u = Math.max(next(), Number.EPSILON);
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    int: (n) => Math.floor(next() * n),
    state: () => s,
  };
}

/**
 * Derive an independent seed for a named component from a run seed.
 *
 * @example
 * ```ts
 * deriveSeed(7, 'grid') === deriveSeed(7, 'grid'); // true: the same name always gets the same seed
 * deriveSeed(7, 'grid') !== deriveSeed(7, 'SAC'); // true: each component gets its own
 * ```
 */
export function deriveSeed(seed: number, name: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < name.length; i++) {
    h = Math.imul(h ^ name.charCodeAt(i), 0x85ebca6b) >>> 0;
    h ^= h >>> 13;
  }
  return h >>> 0;
}
