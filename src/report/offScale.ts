/** The range a chart axis shows; values outside it are drawn at its edge, marked off scale. */
export interface AxisFences {
  readonly low: number;
  readonly high: number;
}

/** Fewer values than this make no quartiles worth the name: all are on the scale. */
const fewestForFences = 4;

/**
 * Tukey's fences of `values`: 1.5 interquartile ranges below the first and
 * above the third quartile (quartiles interpolated linearly, as NumPy's
 * default). A value outside them is an outlier that would stretch a chart's
 * axis until the values that matter look equal. With fewer than four finite
 * values, or none outside, every value is inside.
 *
 * @example
 * ```ts
 * axisFences([13.5, 29.9, 27.2, -68.0, -193.8, 19.9, 28.1]);
 * // { low: -109.6, high: 110 }: -193.8 is off scale, -68 is not
 * axisFences([1, 2, 3]); // { low: -Infinity, high: Infinity }
 * ```
 */
export function axisFences(values: readonly number[]): AxisFences {
  const sorted = values.filter(Number.isFinite).sort((left, right) => left - right);
  if (sorted.length < fewestForFences) {
    return { low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY };
  }
  const first = quantile(sorted, 0.25);
  const third = quantile(sorted, 0.75);
  const reach = 1.5 * (third - first);
  return { low: first - reach, high: third + reach };
}

function quantile(sorted: readonly number[], fraction: number): number {
  const position = (sorted.length - 1) * fraction;
  const below = Math.floor(position);
  const lower = sorted[below] as number;
  const upper = sorted[Math.min(below + 1, sorted.length - 1)] as number;
  return lower + (upper - lower) * (position - below);
}
