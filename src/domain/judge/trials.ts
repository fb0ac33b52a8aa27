import { type RatingAgreement, ratingAgreementAccumulator } from './agreement.js';
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
  const stability = trialStabilityAccumulator(trials);
  for (const result of results) stability.add(result);
  return stability.stability();
}

/**
 * `trialStability` one result at a time. A case is held only until its last
 * trial is in, so when each case's trials are judged together (as `arena
 * judge --trials` does) memory is bounded by the judgements in flight, not by
 * the cases.
 *
 * @example
 * ```ts
 * const stability = trialStabilityAccumulator(2);
 * for await (const result of results) stability.add(result);
 * stability.stability().sameVerdict; // 2
 * ```
 */
export function trialStabilityAccumulator(trials: number): {
  add(result: TrialJudgeResult): void;
  stability(): TrialStability;
} {
  const open = new Map<string, { ratings: (string | null)[]; seen: number }>();
  const agreement = ratingAgreementAccumulator();
  let sameVerdict = 0;
  let cases = 0;
  const close = (ratings: readonly (string | null)[]): void => {
    agreement.add(ratings);
    if (ratings.every((rating) => rating !== null) && new Set(ratings).size === 1) sameVerdict++;
  };
  return {
    add(result) {
      const key = JSON.stringify([result.evaluationRunId, result.caseId, result.subjectId]);
      let entry = open.get(key);
      if (entry === undefined) {
        entry = { ratings: new Array<string | null>(trials).fill(null), seen: 0 };
        open.set(key, entry);
        cases++;
      }
      if (result.trial >= 1 && result.trial <= trials) {
        entry.ratings[result.trial - 1] = result.status === 'error' ? null : result.status;
      }
      entry.seen++;
      if (entry.seen >= trials) {
        open.delete(key);
        close(entry.ratings);
      }
    },
    stability() {
      for (const entry of open.values()) close(entry.ratings);
      open.clear();
      return { ...agreement.agreement(), trials, sameVerdict, cases };
    },
  };
}
