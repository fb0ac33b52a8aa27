import { type RatingAgreement, ratingAgreement } from './agreement.js';
import type { JudgeResult } from './result.js';

/** One judgement of a case in a run of repeated trials: the result and its 1-based trial. */
export type TrialJudgeResult = JudgeResult & { readonly trial: number };

/** How stable a judge's verdicts are over repeated trials of the same cases. */
export interface TrialStability extends RatingAgreement {
  readonly trials: number;
  /** Cases whose every trial gave the same verdict (no trial erred). */
  readonly sameVerdict: number;
  /** Cases judged. */
  readonly cases: number;
}

/**
 * The stability of verdicts over `trials` trials: Fleiss' kappa with the
 * trials as raters and the cases (run, case and subject id) as subjects. A
 * case with an `error` trial (or a missing one) is left out of kappa.
 *
 * @example
 * ```ts
 * trialStability([{ ...passed, trial: 1 }, { ...passed, trial: 2 }, { ...failedB, trial: 1 }, { ...failedB, trial: 2 }], 2);
 * // { kappa: 1, subjects: 2, leftOut: 0, categories: ['failed', 'passed'], trials: 2, sameVerdict: 2, cases: 2 }
 * ```
 */
export function trialStability(
  results: readonly TrialJudgeResult[],
  trials: number,
): TrialStability {
  const byCase = new Map<string, (string | null)[]>();
  for (const result of results) {
    const key = JSON.stringify([result.evaluationRunId, result.caseId, result.subjectId]);
    const ratings = byCase.get(key) ?? new Array<string | null>(trials).fill(null);
    if (result.trial >= 1 && result.trial <= trials) {
      ratings[result.trial - 1] = result.status === 'error' ? null : result.status;
    }
    byCase.set(key, ratings);
  }
  const ratings = [...byCase.values()];
  const sameVerdict = ratings.filter(
    (list) => list.every((rating) => rating !== null) && new Set(list).size === 1,
  ).length;
  return { ...ratingAgreement(ratings), trials, sameVerdict, cases: ratings.length };
}
