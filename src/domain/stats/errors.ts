import { arenaErrorClass } from '../shared/errors.js';

/**
 * A statistic asked of data it cannot describe: a bootstrap with no cases or
 * a resample count below one, two raters whose label lists differ in length.
 * The message names the argument and what was expected.
 *
 * @example
 * ```ts
 * bootstrapInterval(0, () => 1, { seed: 1 });
 * // throws StatsInputError (code STATS_INPUT): bootstrap: cases must be a positive integer, got 0
 * ```
 */
export class StatsInputError extends arenaErrorClass('STATS_INPUT') {}

/**
 * A statistic was asked for with parameters it cannot work with (an alpha
 * outside (0, 1), a population of no cases, a result outside [0, 1], a fold
 * past the end of the population).
 *
 * @example
 * ```ts
 * new StatisticsInputError('alpha must be in (0, 1), got 1').code; // 'STATISTICS_INPUT'
 * ```
 */
export class StatisticsInputError extends arenaErrorClass('STATISTICS_INPUT') {}
