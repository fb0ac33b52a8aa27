import { ArenaError } from '../../domain/shared/errors.js';

/**
 * A fuzzer input that cannot be used: a malformed `--metric` range, a metric
 * no rule reads, a non-positive run count... The message names the option and
 * says what was expected.
 *
 * @example
 * ```ts
 * parseMetricRange('objective=1:0');
 * // throws FuzzInputError (code FUZZ_INPUT):
 * // --metric objective=1:0: the low end 1 must be below the high end 0
 * ```
 */
export class FuzzInputError extends ArenaError {
  constructor(message: string) {
    super('FUZZ_INPUT', message);
  }
}
