import { arenaErrorClass } from '../shared/errors.js';

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
