import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bootstrapInterval,
  cohenKappa,
  confusionMatrix,
  kappaOfMatrix,
} from '../../src/domain/stats/index.js';

const category = fc.constantFrom('passed', 'failed', 'skipped');
const labelList = fc.array(category, { minLength: 2, maxLength: 60 });
/** Two raters of the same items: the second copies the first, except where it does not. */
const ratersOf = (minLength: number) =>
  fc
    .array(fc.tuple(category, category, fc.double({ min: 0, max: 1, noNaN: true })), {
      minLength,
      maxLength: 60,
    })
    .chain((items) =>
      fc.double({ min: 0, max: 1, noNaN: true }).map((noise) => ({
        first: items.map(([label]) => label),
        second: items.map(([label, other, draw]) => (draw < noise ? other : label)),
      })),
    );
const twoRaters = ratersOf(2);

const close = (a: number | null, b: number | null): boolean =>
  a === null ? b === null : b !== null && Math.abs(a - b) <= 1e-12;

describe("Cohen's kappa", () => {
  it('is 1 for identical labels whenever more than one category occurs', () => {
    fc.assert(
      fc.property(labelList, (labels) => {
        fc.pre(new Set(labels).size > 1);
        expect(cohenKappa(labels, labels)).toBeCloseTo(1, 12);
      }),
      { numRuns: 200 },
    );
  });

  it('is symmetric in its two raters', () => {
    fc.assert(
      fc.property(twoRaters, ({ first, second }) => {
        expect(close(cohenKappa(first, second), cohenKappa(second, first))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('is unchanged by relabelling the categories', () => {
    const renaming = fc
      .shuffledSubarray(['alpha', 'beta', 'gamma', 'delta', 'omega'], {
        minLength: 3,
        maxLength: 3,
      })
      .map((names) => ({ passed: names[0]!, failed: names[1]!, skipped: names[2]! }));
    fc.assert(
      fc.property(twoRaters, renaming, ({ first, second }, names) => {
        const rename = (labels: string[]) => labels.map((label) => names[label as 'passed']);
        expect(close(cohenKappa(rename(first), rename(second)), cohenKappa(first, second))).toBe(
          true,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('stays within [-1, 1] when it is defined', () => {
    fc.assert(
      fc.property(twoRaters, ({ first, second }) => {
        const kappa = cohenKappa(first, second);
        if (kappa !== null) {
          expect(kappa).toBeGreaterThanOrEqual(-1 - 1e-12);
          expect(kappa).toBeLessThanOrEqual(1 + 1e-12);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('the case bootstrap', () => {
  it('gives an interval that holds the point estimate of the agreement share', () => {
    fc.assert(
      fc.property(twoRaters, fc.nat(), ({ first, second }, seed) => {
        const same = first.map((label, i) => (label === second[i] ? 1 : 0));
        const share = (indices: Uint32Array | number[]) => {
          let sum = 0;
          for (const index of indices) sum += same[index]!;
          return sum / indices.length;
        };
        const point = share(same.map((_, i) => i));
        const interval = bootstrapInterval(same.length, share, { seed, resamples: 400 });
        expect(interval.lo!).toBeLessThanOrEqual(point);
        expect(interval.hi!).toBeGreaterThanOrEqual(point);
      }),
      { numRuns: 60 },
    );
  });

  it("gives an interval that holds the point estimate of Cohen's kappa (30 or more cases)", () => {
    const raters = ratersOf(30).filter(({ first, second }) => cohenKappa(first, second) !== null);
    fc.assert(
      fc.property(raters, fc.nat(), ({ first, second }, seed) => {
        const labels = ['failed', 'passed', 'skipped'];
        const point = cohenKappa(first, second)!;
        const kappaOf = (indices: Uint32Array) => {
          const matrix = labels.map(() => [0, 0, 0]);
          for (const index of indices) {
            matrix[labels.indexOf(first[index]!)]![labels.indexOf(second[index]!)]! += 1;
          }
          return kappaOfMatrix(matrix);
        };
        expect(kappaOfMatrix(confusionMatrix(first, second, labels).matrix)).toBeCloseTo(point, 12);
        const interval = bootstrapInterval(first.length, kappaOf, { seed, resamples: 400 });
        expect(interval.lo!).toBeLessThanOrEqual(point + 1e-12);
        expect(interval.hi!).toBeGreaterThanOrEqual(point - 1e-12);
      }),
      { numRuns: 40 },
    );
  });
});
