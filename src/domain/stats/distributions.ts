import { createRequire } from 'node:module';
import { StatisticsInputError } from './errors.js';

/** The four functions of the Cephes library arena uses (cephes 3, its WebAssembly build). */
interface Cephes {
  ndtri(p: number): number;
  stdtri(degreesOfFreedom: number, p: number): number;
  stdtr(degreesOfFreedom: number, t: number): number;
  bdtr(k: number, n: number, p: number): number;
}

let loaded: Cephes | undefined;

/**
 * Cephes (Moshier's C library, which SciPy's special functions grew from),
 * loaded at first use: its CommonJS entry compiles its WebAssembly at once
 * (about 20 ms), so nothing that never asks for a quantile pays for it.
 */
function cephes(): Cephes {
  loaded ??= createRequire(import.meta.url)('cephes') as Cephes;
  return loaded;
}

/**
 * The standard normal quantile: the z with P(Z <= z) = p (Cephes `ndtri`).
 *
 * @example
 * ```ts
 * normalQuantile(0.975); // 1.959963984540054
 * ```
 */
export function normalQuantile(p: number): number {
  checkProbability(p, 'p');
  return cephes().ndtri(p);
}

/**
 * The quantile of Student's t with `degreesOfFreedom` (a positive integer) (Cephes `stdtri`).
 *
 * @example
 * ```ts
 * studentTQuantile(0.975, 5); // 2.570581835636315
 * ```
 */
export function studentTQuantile(p: number, degreesOfFreedom: number): number {
  checkProbability(p, 'p');
  checkDegreesOfFreedom(degreesOfFreedom);
  return cephes().stdtri(degreesOfFreedom, p);
}

/**
 * P(T <= t) for Student's t with `degreesOfFreedom` (a positive integer) (Cephes `stdtr`).
 *
 * @example
 * ```ts
 * studentTCdf(-2.3, 7); // 0.027495547602185786
 * ```
 */
export function studentTCdf(t: number, degreesOfFreedom: number): number {
  checkDegreesOfFreedom(degreesOfFreedom);
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  return cephes().stdtr(degreesOfFreedom, t);
}

/**
 * P(X <= k) for X binomial with `n` trials of success probability `p` (Cephes `bdtr`).
 *
 * @example
 * ```ts
 * binomialCdf(3, 20, 0.5); // 0.0012884140014648435
 * ```
 */
export function binomialCdf(k: number, n: number, p: number): number {
  if (!Number.isInteger(n) || n < 0) {
    throw new StatisticsInputError(`binomial n must be a non-negative integer, got ${n}`);
  }
  if (!Number.isInteger(k))
    throw new StatisticsInputError(`binomial k must be an integer, got ${k}`);
  if (!(p >= 0 && p <= 1)) throw new StatisticsInputError(`binomial p must be in [0, 1], got ${p}`);
  if (k < 0) return 0;
  if (k >= n) return 1;
  return cephes().bdtr(k, n, p);
}

function checkProbability(p: number, name: string): void {
  if (!(p > 0 && p < 1)) {
    throw new StatisticsInputError(`${name} must be a probability in (0, 1), got ${p}`);
  }
}

function checkDegreesOfFreedom(degreesOfFreedom: number): void {
  if (!Number.isInteger(degreesOfFreedom) || degreesOfFreedom < 1) {
    throw new StatisticsInputError(
      `degrees of freedom must be a positive integer, got ${degreesOfFreedom}`,
    );
  }
}
