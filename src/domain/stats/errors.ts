import { arenaErrorClass } from '../shared/errors.js';

/**
 * A statistic was asked for with parameters or data it is not defined on (an
 * alpha or confidence level outside (0, 1), a population of no cases, a
 * result outside [0, 1], a bootstrap of no cases, two raters whose label lists
 * differ in length, a pass@k with k above the trials). The message names the
 * argument and what was expected.
 *
 * @example
 * ```ts
 * passAtK(3, 1, 5); // throws StatisticsInputError: pass@k needs k <= n (the trials of a case), got k 5 with n 3
 * ```
 */
export class StatisticsInputError extends arenaErrorClass('STATISTICS_INPUT') {}
