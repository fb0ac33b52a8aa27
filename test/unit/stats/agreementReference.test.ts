import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  cohenKappa,
  confusionMatrix,
  fleissKappa,
  kappaOfMatrix,
  labelScores,
  meanAbsoluteDifference,
  pearson,
  StatisticsInputError,
  spearman,
} from '../../../src/domain/stats/index.js';

interface LabelCase {
  name: string;
  judge: string[];
  reference: string[];
  labels: string[];
  matrix: number[][];
  kappa: number | null;
  kappaReversed: number | null;
  agreement: number;
  perLabel: Record<
    string,
    { precision: number | null; recall: number | null; f1: number | null; support: number }
  >;
}
interface ScoreCase {
  name: string;
  first: number[];
  second: number[];
  spearman: number | null;
  pearson: number | null;
  meanAbsoluteDifference: number;
}
interface FleissCase {
  name: string;
  counts: number[][];
  kappa: number | null;
}

// written once by scripts/stats-reference-agreement.py (scikit-learn, SciPy, statsmodels)
const reference = JSON.parse(
  readFileSync(new URL('../../fixtures/stats/agreement.json', import.meta.url), 'utf8'),
) as { labels: LabelCase[]; scores: ScoreCase[]; fleiss: FleissCase[] };

const tolerance = 1e-9;

function expectClose(actual: number | null, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else {
    expect(actual).not.toBeNull();
    expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(tolerance);
  }
}

describe('agreement statistics against scikit-learn and statsmodels', () => {
  it('holds every reference data set', () => {
    expect(reference.labels.length).toBe(7);
    expect(reference.scores.length).toBe(4);
    expect(reference.fleiss.length).toBe(3);
  });

  it.each(reference.labels.map((each) => [each.name, each] as const))(
    'confusion matrix, kappa, precision, recall and F1 agree on %s',
    (_name, data) => {
      const confusion = confusionMatrix(data.judge, data.reference);
      expect(confusion.labels).toEqual(data.labels);
      expect(confusion.matrix).toEqual(data.matrix);
      expectClose(cohenKappa(data.judge, data.reference), data.kappa);
      expectClose(cohenKappa(data.reference, data.judge), data.kappaReversed);
      expectClose(kappaOfMatrix(confusion.matrix), data.kappa);
      const scores = labelScores(confusion);
      for (const label of data.labels) {
        const expected = data.perLabel[label]!;
        const actual = scores[label]!;
        expectClose(actual.precision, expected.precision);
        expectClose(actual.recall, expected.recall);
        expectClose(actual.f1, expected.f1);
        expect(actual.support).toBe(expected.support);
      }
    },
  );

  it.each(reference.scores.map((each) => [each.name, each] as const))(
    'Spearman, Pearson and the mean absolute difference agree on %s',
    (_name, data) => {
      expectClose(spearman(data.first, data.second), data.spearman);
      expectClose(pearson(data.first, data.second), data.pearson);
      expectClose(meanAbsoluteDifference(data.first, data.second), data.meanAbsoluteDifference);
    },
  );

  it.each(reference.fleiss.map((each) => [each.name, each] as const))(
    "Fleiss' kappa agrees on %s",
    (_name, data) => {
      expectClose(fleissKappa(data.counts), data.kappa);
    },
  );
});

describe('agreement statistics at their edges', () => {
  it('gives no kappa for no items or a single shared category', () => {
    expect(kappaOfMatrix([])).toBeNull();
    expect(cohenKappa(['passed', 'passed'], ['passed', 'passed'])).toBeNull();
  });

  it('gives no correlation without variation or with one pair', () => {
    expect(pearson([0.5, 0.5, 0.5], [0.1, 0.2, 0.3])).toBeNull();
    expect(spearman([1], [2])).toBeNull();
    expect(meanAbsoluteDifference([], [])).toBeNull();
  });

  it('refuses label or score lists of different lengths, naming both counts', () => {
    expect(() => confusionMatrix(['a'], ['a', 'b'])).toThrow(StatisticsInputError);
    expect(() => confusionMatrix(['a'], ['a', 'b'])).toThrow(
      'confusion matrix: the judge gave 1 labels and the reference 2',
    );
    expect(() => pearson([1, 2], [1])).toThrow('pearson: 2 values paired with 1');
    expect(() => spearman([1, 2], [1])).toThrow('spearman: 2 values paired with 1');
  });

  it('refuses a label outside the labels it is given', () => {
    expect(() => confusionMatrix(['a', 'c'], ['a', 'a'], ['a', 'b'])).toThrow(
      'confusion matrix: item 1 has label "c", not one of ["a","b"]',
    );
  });
});
