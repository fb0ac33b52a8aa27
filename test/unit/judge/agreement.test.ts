import { describe, expect, it } from 'vitest';
import {
  fleissKappa,
  pairwiseAgreement,
  ratingAgreement,
} from '../../../src/domain/judge/agreement.js';
import { AgreementTableError } from '../../../src/domain/judge/errors.js';
import type { JudgeResult } from '../../../src/domain/judge/result.js';
import { trialStability } from '../../../src/domain/judge/trials.js';

/** Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters, 5 categories. */
const wikipediaTable = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

describe('fleissKappa', () => {
  it("gives Wikipedia's worked example its kappa of 0.210", () => {
    // P̄ = 0.378, P̄e = 0.213 in the worked example; κ = (0.378 − 0.213) / (1 − 0.213).
    expect(fleissKappa(wikipediaTable)).toBeCloseTo(0.21, 3);
  });

  it("gives each of the worked example's subjects its P_i", () => {
    const ratings = wikipediaTable.map((row) =>
      row.flatMap((count, category) => Array.from({ length: count }, () => `c${category}`)),
    );
    const shown = [1.0, 0.253, 0.308, 0.44, 0.33, 0.462, 0.242, 0.176, 0.286, 0.286];
    ratings.forEach((subject, index) => {
      expect(pairwiseAgreement(subject)).toBeCloseTo(shown[index]!, 3);
    });
  });

  it('is 1 for perfect agreement over two categories and negative for systematic disagreement', () => {
    expect(
      fleissKappa([
        [3, 0],
        [0, 3],
        [3, 0],
      ]),
    ).toBe(1);
    expect(
      fleissKappa([
        [1, 1],
        [1, 1],
      ]),
    ).toBe(-1);
  });

  it('is null when every rating falls in one category (kappa is 0/0 there)', () => {
    expect(
      fleissKappa([
        [2, 0],
        [2, 0],
      ]),
    ).toBeNull();
  });

  it.each([
    [[], 'at least one subject'],
    [[[1, 1], [2]], 'row 1 has 1 categories, expected 2'],
    [
      [
        [1, 1],
        [2, 1],
      ],
      'row 1 has 3 ratings',
    ],
    [[[1, 0]], 'row 0 has 1 ratings'],
    [[[1.5, 0.5]], 'not a non-negative integer'],
  ])('rejects a malformed table %j', (table, message) => {
    expect(() => fleissKappa(table)).toThrow(AgreementTableError);
    expect(() => fleissKappa(table)).toThrow(message);
  });
});

describe('ratingAgreement', () => {
  it('leaves out a subject a rater gave no rating, and counts the rest', () => {
    expect(
      ratingAgreement([
        ['passed', 'passed'],
        ['failed', 'failed'],
        ['passed', null],
      ]),
    ).toEqual({ kappa: 1, subjects: 2, leftOut: 1, categories: ['failed', 'passed'] });
  });

  it('has no kappa when nothing was rated by every rater', () => {
    expect(ratingAgreement([[null, 'passed']])).toEqual({
      kappa: null,
      subjects: 0,
      leftOut: 1,
      categories: [],
    });
  });
});

describe('trialStability', () => {
  const result = (caseId: string, status: JudgeResult['status'], trial: number) =>
    ({ evaluationRunId: 'run', caseId, subjectId: caseId, status, trial }) as JudgeResult & {
      trial: number;
    };

  it('counts the trials of each case as raters and the cases whose trials all agree', () => {
    const stability = trialStability(
      [
        result('a', 'passed', 1),
        result('b', 'failed', 1),
        result('a', 'passed', 2),
        result('b', 'passed', 2),
        result('c', 'error', 1),
        result('c', 'passed', 2),
      ],
      2,
    );
    expect(stability).toMatchObject({
      trials: 2,
      cases: 3,
      sameVerdict: 1,
      subjects: 2,
      leftOut: 1,
    });
    // a: passed twice (P_i 1), b: split (P_i 0); p(passed) = 3/4: κ = (0.5 − 0.625) / 0.375.
    expect(stability.kappa).toBeCloseTo(-1 / 3, 10);
  });
});
