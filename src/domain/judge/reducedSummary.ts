import { meanInterval } from '../stats/meanInterval.js';
import { addMoment, emptyMoments } from '../stats/runningMoments.js';
import { wilsonInterval } from '../stats/wilsonInterval.js';
import type { JudgeSummary } from './summary.js';
import type { ReducedCase } from './trialReducers.js';

/** What a summary's rates and intervals become over reduced cases. */
export type ReducedRates = Pick<
  JudgeSummary,
  'passRate' | 'n' | 'passRateCi' | 'meanScore' | 'scored' | 'meanScoreCi'
>;

/**
 * The pass rate and mean score over reduced cases, one value a case, folded
 * in constant memory. Cases are independent, so no clustering: the pass rate
 * has Wilson's interval when every pass value is 0 or 1 (`mode`, `max`, `min`,
 * `at_least_K`), else the t interval of the mean pass value (`mean`, `median`,
 * `pass_at_K`); the mean score has the t interval.
 *
 * @example
 * ```ts
 * const reduced = reducedSummaryAccumulator();
 * for (const value of [1, 0, 1]) reduced.add({ ...reducedCase, passValue: value, score: value });
 * reduced.rates();
 * // { passRate: 0.6666666666666666, n: 3, passRateCi: { low: 0.2076596008020477, high: 0.9385080552796037 }, meanScore: 0.6666666666666666, scored: 3, meanScoreCi: { ... } }
 * ```
 */
export function reducedSummaryAccumulator(): {
  add(reduced: ReducedCase): void;
  rates(): ReducedRates;
  /** Cases folded. */
  readonly cases: number;
} {
  const passValues = emptyMoments();
  const scores = emptyMoments();
  let binary = true;
  let passes = 0;
  let cases = 0;
  return {
    add(reduced) {
      cases++;
      if (reduced.passValue !== null) {
        addMoment(passValues, reduced.passValue);
        if (reduced.passValue === 1) passes++;
        else if (reduced.passValue !== 0) binary = false;
      }
      if (reduced.score !== null) addMoment(scores, reduced.score);
    },
    rates() {
      const n = passValues.count;
      return {
        passRate: n === 0 ? null : binary ? passes / n : passValues.mean,
        n,
        passRateCi: binary ? wilsonInterval(passes, n) : meanInterval(passValues),
        meanScore: scores.count > 0 ? scores.mean : null,
        scored: scores.count,
        meanScoreCi: meanInterval(scores),
      };
    },
    get cases() {
      return cases;
    },
  };
}
