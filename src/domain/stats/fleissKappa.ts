/**
 * Fleiss' kappa (Fleiss 1971) of a subjects × categories table of counts,
 * every subject rated by the same number of raters, as statsmodels'
 * `fleiss_kappa`. It lives with the panel's agreement, which came first
 * (`src/domain/judge/agreement.ts`); named here with arena's other statistics.
 *
 * @example
 * ```ts
 * fleissKappa([[2, 0], [1, 1], [0, 2], [2, 0], [2, 0], [0, 2], [1, 1]]); // 0.4166666666666668
 * ```
 */
export { fleissKappa, ratingAgreementAccumulator } from '../judge/agreement.js';
