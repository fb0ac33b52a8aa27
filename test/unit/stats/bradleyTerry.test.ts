import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BradleyTerryInputError, bradleyTerry } from '../../../src/domain/stats/bradleyTerry.js';

interface ReferenceCase {
  readonly name: string;
  readonly wins: number[][];
  readonly ratings: number[];
  readonly regularized: boolean;
}

const reference = JSON.parse(
  readFileSync(new URL('../../fixtures/stats/bradleyTerry.json', import.meta.url), 'utf8'),
) as { cases: ReferenceCase[] };

describe('bradleyTerry', () => {
  it('reads six reference data sets', () => {
    expect(reference.cases).toHaveLength(6);
  });

  for (const each of reference.cases) {
    it(`agrees with SciPy's maximum-likelihood fit to 1e-6: ${each.name}`, () => {
      const fit = bradleyTerry(each.wins);
      expect(fit.regularized).toBe(each.regularized);
      fit.ratings.forEach((rating, i) => {
        expect(Math.abs(rating - each.ratings[i]!)).toBeLessThan(1e-6);
      });
    });
  }

  it('puts the mean rating at 1000', () => {
    const fit = bradleyTerry(reference.cases[2]!.wins);
    const mean = fit.ratings.reduce((sum, rating) => sum + rating, 0) / fit.ratings.length;
    expect(mean).toBeCloseTo(1000, 9);
  });

  it('rates a 3:1 record 400 log10(3) Elo points apart', () => {
    const [a, b] = bradleyTerry([
      [0, 3],
      [1, 0],
    ]).ratings;
    expect(a! - b!).toBeCloseTo(400 * Math.log10(3), 9);
  });

  it('regularizes a system that never wins, keeping it last and finite', () => {
    const fit = bradleyTerry([
      [0, 4, 2],
      [0, 0, 0],
      [3, 5, 0],
    ]);
    expect(fit.regularized).toBe(true);
    expect(fit.ratings.every(Number.isFinite)).toBe(true);
    expect(Math.min(...fit.ratings)).toBe(fit.ratings[1]);
  });

  it('refuses a negative count, naming its cell', () => {
    expect(() =>
      bradleyTerry([
        [0, -1],
        [1, 0],
      ]),
    ).toThrow(new BradleyTerryInputError('wins[0][1] must be a finite number at least 0, got -1'));
  });

  it('refuses a matrix of one system or of the wrong shape', () => {
    expect(() => bradleyTerry([[0]])).toThrow(BradleyTerryInputError);
    expect(() => bradleyTerry([[0, 1], [1]])).toThrow('row 1 has 1 counts, expected 2');
  });
});
