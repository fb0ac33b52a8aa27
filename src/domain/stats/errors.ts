import { arenaErrorClass } from '../shared/errors.js';

/**
 * A statistic was asked of data it is not defined on: a pass@k with k above
 * the trials, a count that is not a non-negative integer, a confidence level
 * outside (0, 1). The message names the argument and what was expected.
 *
 * @example
 * ```ts
 * passAtK(3, 1, 5); // throws StatisticsInputError: pass@k needs k <= n (the trials of a case), got k 5 with n 3
 * ```
 */
export class StatisticsInputError extends arenaErrorClass('STATISTICS_INPUT') {}
