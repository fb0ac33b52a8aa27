import type { JsonValue } from '../shared/json.js';
import { createRng } from '../shared/random.js';
import { SweepSearchError } from './errors.js';
import type { SweepParameter, SweepSpec, TrialParameters } from './types.js';

/**
 * A sweep's trials, each the values it sets in the order the sweep file lists
 * its parameters. Grid: every combination of the listed values, the first
 * parameter varying slowest. Random: `trials` draws from a generator seeded
 * by the sweep's seed, the same on every machine: a listed parameter is a
 * uniform choice, a range uniform in [low, high) (log: in log space; integer:
 * a whole number in [low, high]).
 *
 * @throws SweepSearchError for a range parameter in a grid search.
 * @example
 * ```ts
 * expandTrials({ seed: 0, search: { kind: 'grid' }, parameters: [
 *   { kind: 'values', pointer: '/a', values: [1, 2] }, { kind: 'values', pointer: '/b', values: ['x', 'y'] },
 * ] }).map((trial) => trial.map((each) => each.value));
 * // [[1, 'x'], [1, 'y'], [2, 'x'], [2, 'y']]
 * ```
 */
export function expandTrials(
  spec: Pick<SweepSpec, 'seed' | 'parameters' | 'search'>,
): TrialParameters[] {
  if (spec.search.kind === 'grid') {
    let trials: TrialParameters[] = [[]];
    for (const [position, parameter] of spec.parameters.entries()) {
      if (parameter.kind !== 'values') {
        throw new SweepSearchError(
          `parameters[${position}] (${parameter.pointer}) is a range: a grid search needs listed values`,
        );
      }
      trials = trials.flatMap((trial) =>
        parameter.values.map((value) => [...trial, { ...named(parameter), value }]),
      );
    }
    return trials;
  }
  const rng = createRng(spec.seed);
  const draw = (parameter: SweepParameter): JsonValue => {
    if (parameter.kind === 'values')
      return parameter.values[rng.int(parameter.values.length)] as JsonValue;
    if (parameter.integer) {
      const low = Math.ceil(parameter.low);
      return low + rng.int(Math.floor(parameter.high) - low + 1);
    }
    if (parameter.log) {
      return Math.exp(rng.uniform(Math.log(parameter.low), Math.log(parameter.high)));
    }
    return rng.uniform(parameter.low, parameter.high);
  };
  return Array.from({ length: spec.search.trials }, () =>
    spec.parameters.map((parameter) => ({ ...named(parameter), value: draw(parameter) })),
  );
}

/** A parameter's pointer, and its name when the sweep file gives one. */
function named(parameter: SweepParameter): { pointer: string; name?: string } {
  return parameter.name === undefined
    ? { pointer: parameter.pointer }
    : { pointer: parameter.pointer, name: parameter.name };
}
