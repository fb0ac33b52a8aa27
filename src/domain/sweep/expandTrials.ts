import type { JsonValue } from '../shared/json.js';
import { createRng, deriveSeed, type Rng } from '../shared/random.js';
import { SweepSearchError } from './errors.js';
import type { ListedParameter, RangeParameter, SweepSpec, TrialParameters } from './types.js';

/**
 * The sweep's trials, each the values it sets, in the sweep file's parameter
 * order. Trial `i` of the result is trial index `i`.
 *
 * - `grid`: every combination of the parameters' `values`, the first
 *   parameter varying slowest. A range parameter cannot be a grid axis.
 * - `random`: `search.trials` draws from one generator seeded from `seed`
 *   (the same seed gives the same trials on every machine), each trial
 *   drawing its parameters in order: listed values uniformly; a range
 *   uniformly in [low, high), in log space when `log`; an `integer` range a
 *   whole number in [low, high], both ends included. Floats are kept as drawn.
 *
 * Throws `SweepSearchError` naming `parameters[i]` for a range in a grid, an
 * empty values list, or a range that holds no value (low ≥ high, log with
 * low ≤ 0); and for a random search whose `trials` is not a whole number ≥ 1.
 *
 * @example
 * ```ts
 * expandTrials({ seed: 0, search: { kind: 'grid' }, parameters: [
 *   { kind: 'values', pointer: '/a', values: [1, 2] },
 *   { kind: 'values', pointer: '/b', values: ['x', 'y'] },
 * ] });
 * // [[{ pointer: '/a', value: 1 }, { pointer: '/b', value: 'x' }],
 * //  [{ pointer: '/a', value: 1 }, { pointer: '/b', value: 'y' }],
 * //  [{ pointer: '/a', value: 2 }, { pointer: '/b', value: 'x' }],
 * //  [{ pointer: '/a', value: 2 }, { pointer: '/b', value: 'y' }]]
 * ```
 */
export function expandTrials(
  spec: Pick<SweepSpec, 'seed' | 'parameters' | 'search'>,
): TrialParameters[] {
  const grid = spec.search.kind === 'grid';
  for (const [i, parameter] of spec.parameters.entries()) {
    if (grid && parameter.kind === 'range') {
      throw new SweepSearchError(
        `${nameOf(parameter, i)}: a range parameter cannot be a grid axis; list its values, or use a random search`,
      );
    }
    checkParameter(parameter, i);
  }
  if (spec.search.kind === 'grid') return gridTrials(spec.parameters as readonly ListedParameter[]);
  const { trials } = spec.search;
  if (!Number.isInteger(trials) || trials < 1) {
    throw new SweepSearchError(`search.trials must be a whole number ≥ 1, got ${trials}`);
  }
  const rng = createRng(deriveSeed(spec.seed, 'sweep.trials'));
  return Array.from({ length: trials }, () =>
    spec.parameters.map((parameter) => ({ ...named(parameter), value: draw(parameter, rng) })),
  );
}

/** Every combination of the listed values, the first parameter varying slowest. */
function gridTrials(parameters: readonly ListedParameter[]): TrialParameters[] {
  let trials: TrialParameters[] = [[]];
  for (const parameter of parameters) {
    trials = trials.flatMap((trial) =>
      parameter.values.map((value) => [...trial, { ...named(parameter), value }]),
    );
  }
  return trials;
}

function draw(parameter: ListedParameter | RangeParameter, rng: Rng): JsonValue {
  if (parameter.kind === 'values') return parameter.values[rng.int(parameter.values.length)]!;
  const { low, high } = parameter;
  if (parameter.integer) {
    const first = Math.ceil(low);
    const last = Math.floor(high);
    if (!parameter.log) return first + rng.int(last - first + 1);
    // Log-uniform over [first, last + 1), floored: whole number k drawn in proportion to log((k + 1) / k).
    const drawn = Math.floor(Math.exp(rng.uniform(Math.log(first), Math.log(last + 1))));
    return Math.min(last, Math.max(first, drawn));
  }
  if (!parameter.log) return rng.uniform(low, high);
  return Math.exp(rng.uniform(Math.log(low), Math.log(high)));
}

function checkParameter(parameter: ListedParameter | RangeParameter, i: number): void {
  const name = nameOf(parameter, i);
  if (parameter.kind === 'values') {
    if (parameter.values.length === 0) throw new SweepSearchError(`${name}: values is empty`);
    return;
  }
  const { low, high } = parameter;
  if (!Number.isFinite(low) || !Number.isFinite(high)) {
    throw new SweepSearchError(`${name}: low and high must be finite, got ${low} and ${high}`);
  }
  if (parameter.log && low <= 0) {
    throw new SweepSearchError(`${name}: a log range needs low > 0, got ${low}`);
  }
  if (parameter.integer ? Math.ceil(low) > Math.floor(high) : low >= high) {
    throw new SweepSearchError(
      parameter.integer
        ? `${name}: no whole number lies in [${low}, ${high}]`
        : `${name}: low must be below high, got ${low} and ${high}`,
    );
  }
}

function nameOf(parameter: { readonly pointer: string }, i: number): string {
  return `parameters[${i}] (${JSON.stringify(parameter.pointer)})`;
}

/** A parameter's pointer, and its name when the sweep file gives one (the leaderboard's column). */
function named(parameter: ListedParameter | RangeParameter): { pointer: string; name?: string } {
  return parameter.name === undefined
    ? { pointer: parameter.pointer }
    : { pointer: parameter.pointer, name: parameter.name };
}
