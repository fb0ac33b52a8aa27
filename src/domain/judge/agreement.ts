import { AgreementTableError } from './errors.js';

/**
 * Fleiss' kappa (Fleiss 1971) of a table of ratings: one row per subject, one
 * column per category, each cell the number of raters who put that subject in
 * that category. Every row must hold the same number of ratings n ≥ 2.
 * κ = (P̄ − P̄e) / (1 − P̄e): 1 is perfect agreement, 0 what chance gives.
 * `null` when P̄e = 1 (every rating in one category): kappa is 0 / 0 there.
 *
 * @throws AgreementTableError when the table is empty, ragged, or a row has
 * fewer than two ratings or a count that is not a non-negative integer.
 * @example
 * ```ts
 * // Wikipedia's worked example: 10 subjects, 14 raters, 5 categories
 * fleissKappa([[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], ...]); // 0.2099...
 * fleissKappa([[2, 0], [0, 2]]); // 1
 * fleissKappa([[2], [2]]); // null: one category only
 * ```
 */
export function fleissKappa(counts: readonly (readonly number[])[]): number | null {
  const raters = checkedRaters(counts);
  const categories = counts[0]!.length;
  const subjects = counts.length;
  let meanAgreement = 0;
  const categoryTotals = new Array<number>(categories).fill(0);
  for (const row of counts) {
    meanAgreement += subjectAgreement(row, raters);
    row.forEach((count, category) => {
      categoryTotals[category]! += count;
    });
  }
  meanAgreement /= subjects;
  const chance = categoryTotals.reduce((sum, total) => sum + (total / (subjects * raters)) ** 2, 0);
  if (chance >= 1) return null;
  return (meanAgreement - chance) / (1 - chance);
}

/**
 * Fleiss's P_i of one subject: the share of rater pairs that agree,
 * (Σ n_ij² − n) / (n (n − 1)); `null` with fewer than two ratings.
 *
 * @example
 * ```ts
 * pairwiseAgreement(['passed', 'passed', 'failed']); // 0.3333: 1 pair of 3 agrees
 * pairwiseAgreement(['passed']); // null
 * ```
 */
export function pairwiseAgreement(ratings: readonly string[]): number | null {
  if (ratings.length < 2) return null;
  const counts = new Map<string, number>();
  for (const rating of ratings) counts.set(rating, (counts.get(rating) ?? 0) + 1);
  return subjectAgreement([...counts.values()], ratings.length);
}

/** The agreement of raters over many subjects, and which subjects it could count. */
export interface RatingAgreement {
  /** Fleiss' kappa over the complete subjects; `null` when none or a single category. */
  readonly kappa: number | null;
  /** Subjects every rater rated: the ones kappa counts. */
  readonly subjects: number;
  /** Subjects left out because at least one rater gave no rating (an error). */
  readonly leftOut: number;
  /** The categories seen, sorted. */
  readonly categories: readonly string[];
}

/**
 * Fleiss' kappa of categorical ratings: one array per subject, one entry per
 * rater, `null` for a rater who gave no rating. Fleiss' kappa needs every
 * subject rated by every rater, so a subject with a `null` is left out.
 *
 * @example
 * ```ts
 * ratingAgreement([['passed', 'passed'], ['failed', 'failed'], ['passed', null]]);
 * // { kappa: 1, subjects: 2, leftOut: 1, categories: ['failed', 'passed'] }
 * ```
 */
export function ratingAgreement(
  ratingsBySubject: readonly (readonly (string | null)[])[],
): RatingAgreement {
  const agreement = ratingAgreementAccumulator();
  for (const ratings of ratingsBySubject) agreement.add(ratings);
  return agreement.agreement();
}

/**
 * `ratingAgreement` one subject at a time, in memory bounded by the
 * categories, not the subjects: Fleiss' kappa needs only the sum of the
 * subjects' pairwise agreements and each category's total.
 *
 * @throws AgreementTableError when a complete subject has another number of raters than the first.
 * @example
 * ```ts
 * const agreement = ratingAgreementAccumulator();
 * agreement.add(['passed', 'passed']);
 * agreement.add(['failed', 'failed']);
 * agreement.add(['passed', null]);
 * agreement.agreement(); // { kappa: 1, subjects: 2, leftOut: 1, categories: ['failed', 'passed'] }
 * ```
 */
export function ratingAgreementAccumulator(): {
  add(ratings: readonly (string | null)[]): void;
  agreement(): RatingAgreement;
} {
  let raters: number | null = null;
  let subjects = 0;
  let leftOut = 0;
  let agreementSum = 0;
  const categoryTotals = new Map<string, number>();
  return {
    add(ratings) {
      if (!ratings.every((rating) => rating !== null)) {
        leftOut++;
        return;
      }
      raters ??= ratings.length;
      if (ratings.length !== raters) {
        throw new AgreementTableError(
          `row ${subjects} has ${ratings.length} ratings, expected the same number (at least 2) in every row`,
        );
      }
      const counts = new Map<string, number>();
      for (const rating of ratings as readonly string[]) {
        counts.set(rating, (counts.get(rating) ?? 0) + 1);
        categoryTotals.set(rating, (categoryTotals.get(rating) ?? 0) + 1);
      }
      if (raters >= 2) agreementSum += subjectAgreement([...counts.values()], raters);
      subjects++;
    },
    agreement() {
      const categories = [...categoryTotals.keys()].sort();
      if (subjects === 0 || raters === null || raters < 2) {
        return { kappa: null, subjects, leftOut, categories };
      }
      const ratings = subjects * raters;
      const chance = categories.reduce(
        (sum, category) => sum + (categoryTotals.get(category)! / ratings) ** 2,
        0,
      );
      const kappa = chance >= 1 ? null : (agreementSum / subjects - chance) / (1 - chance);
      return { kappa, subjects, leftOut, categories };
    },
  };
}

function subjectAgreement(row: readonly number[], raters: number): number {
  const squares = row.reduce((sum, count) => sum + count * count, 0);
  return (squares - raters) / (raters * (raters - 1));
}

function checkedRaters(counts: readonly (readonly number[])[]): number {
  const first = counts[0];
  if (first === undefined || first.length === 0) {
    throw new AgreementTableError('needs at least one subject and one category');
  }
  const raters = first.reduce((sum, count) => sum + count, 0);
  counts.forEach((row, index) => {
    if (row.length !== first.length) {
      throw new AgreementTableError(
        `row ${index} has ${row.length} categories, expected ${first.length}`,
      );
    }
    if (!row.every((count) => Number.isInteger(count) && count >= 0)) {
      throw new AgreementTableError(
        `row ${index} holds a count that is not a non-negative integer`,
      );
    }
    const total = row.reduce((sum, count) => sum + count, 0);
    if (total !== raters || total < 2) {
      throw new AgreementTableError(
        `row ${index} has ${total} ratings, expected the same number (at least 2) in every row`,
      );
    }
  });
  return raters;
}
