import { describe, expect, it } from 'vitest';
import {
  bootstrapInterval,
  bootstrapRecords,
  percentileOfSorted,
  StatsInputError,
} from '../../../src/domain/stats/index.js';

const shareOf = (values: readonly number[]) => (indices: Uint32Array) => {
  let sum = 0;
  for (const index of indices) sum += values[index]!;
  return sum / indices.length;
};

describe('percentileOfSorted', () => {
  it('interpolates between the closest ranks as numpy does', () => {
    expect(percentileOfSorted([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentileOfSorted([1, 2, 3, 4], 2.5)).toBeCloseTo(1.075, 12);
    expect(percentileOfSorted([1, 2, 3, 4], 97.5)).toBeCloseTo(3.925, 12);
    expect(percentileOfSorted([5], 2.5)).toBe(5);
    expect(percentileOfSorted([1, 2, 3, 4], 0)).toBe(1);
    expect(percentileOfSorted([1, 2, 3, 4], 100)).toBe(4);
  });
});

describe('bootstrapInterval', () => {
  const passed = [1, 1, 0, 1, 0, 1, 1, 1];

  it('gives the same interval for the same seed, and another for another seed', () => {
    const first = bootstrapInterval(passed.length, shareOf(passed), { seed: 7 });
    const again = bootstrapInterval(passed.length, shareOf(passed), { seed: 7 });
    expect(again).toEqual(first);
    expect(first).toEqual({ lo: 0.375, hi: 1, resamples: 2000, undefined: 0 });
    const spread = Array.from({ length: 40 }, (_, i) => Math.sqrt(i));
    const other = bootstrapInterval(spread.length, shareOf(spread), { seed: 8 });
    const otherSeed = bootstrapInterval(spread.length, shareOf(spread), { seed: 9 });
    expect(otherSeed).not.toEqual(other);
  });

  it('draws every index in range, uniformly, with replacement', () => {
    const counts = new Array<number>(10).fill(0);
    let repeated = 0;
    bootstrapInterval(
      10,
      (indices) => {
        expect(indices.length).toBe(10);
        for (const index of indices) counts[index]! += 1;
        if (new Set(indices).size < indices.length) repeated += 1;
        return 0;
      },
      { seed: 3, resamples: 1000 },
    );
    // 10,000 draws: each index near 1,000 (5 sigma is about 150).
    for (const count of counts) expect(Math.abs(count - 1000)).toBeLessThan(150);
    // Ten draws of ten without a repeat happen with probability 10!/10^10 (0.04%).
    expect(repeated).toBeGreaterThan(990);
  });

  it('narrows as the cases grow, around the point estimate', () => {
    const small = Array.from({ length: 20 }, (_, i) => (i % 4 === 0 ? 0 : 1));
    const large = Array.from({ length: 2000 }, (_, i) => (i % 4 === 0 ? 0 : 1));
    const smallInterval = bootstrapInterval(small.length, shareOf(small), { seed: 1 });
    const largeInterval = bootstrapInterval(large.length, shareOf(large), {
      seed: 1,
      resamples: 400,
    });
    expect(largeInterval.hi! - largeInterval.lo!).toBeLessThan(
      (smallInterval.hi! - smallInterval.lo!) / 5,
    );
    expect(largeInterval.lo!).toBeLessThan(0.75);
    expect(largeInterval.hi!).toBeGreaterThan(0.75);
    // Normal theory: 1.96 * sqrt(0.75 * 0.25 / 2000) = 0.019 each side.
    expect(largeInterval.hi! - largeInterval.lo!).toBeGreaterThan(0.03);
    expect(largeInterval.hi! - largeInterval.lo!).toBeLessThan(0.046);
  });

  it('leaves out and counts the resamples whose statistic is undefined', () => {
    const interval = bootstrapInterval(3, (indices) => (indices[0] === 0 ? null : indices[0]!), {
      seed: 5,
      resamples: 300,
    });
    expect(interval.undefined).toBeGreaterThan(50);
    expect(interval.undefined).toBeLessThan(150);
    expect(interval.lo).toBe(1);
    expect(interval.hi).toBe(2);
    const never = bootstrapInterval(3, () => Number.NaN, { seed: 5, resamples: 10 });
    expect(never).toEqual({ lo: null, hi: null, resamples: 10, undefined: 10 });
  });

  it('takes a wider interval for a higher level', () => {
    const values = Array.from({ length: 50 }, (_, i) => (i * 7) % 11);
    const mean = shareOf(values);
    const ninety = bootstrapInterval(50, mean, { seed: 2, level: 0.9 });
    const ninetyNine = bootstrapInterval(50, mean, { seed: 2, level: 0.99 });
    expect(ninetyNine.lo!).toBeLessThan(ninety.lo!);
    expect(ninetyNine.hi!).toBeGreaterThan(ninety.hi!);
  });

  it('rejects no cases, no resamples and a level outside (0, 1), naming the argument', () => {
    expect(() => bootstrapInterval(0, () => 1, { seed: 1 })).toThrow(
      'bootstrap: cases must be a positive integer, got 0',
    );
    expect(() => bootstrapInterval(3, () => 1, { seed: 1, resamples: 0 })).toThrow(StatsInputError);
    expect(() => bootstrapInterval(3, () => 1, { seed: 1, resamples: 2.5 })).toThrow(
      'bootstrap: resamples must be a positive integer, got 2.5',
    );
    expect(() => bootstrapInterval(3, () => 1, { seed: 1, level: 1 })).toThrow(
      'bootstrap: level must be in (0, 1), got 1',
    );
  });
});

describe('bootstrapRecords', () => {
  it('hands the statistic the drawn records, as the index bootstrap with the same seed', () => {
    const scores = [0.2, 0.9, 0.6, 0.4, 0.8];
    const byRecords = bootstrapRecords(
      scores.map((score) => ({ score })),
      (drawn) => {
        let sum = 0;
        let count = 0;
        for (const record of drawn) {
          sum += record.score;
          count += 1;
        }
        return sum / count;
      },
      { seed: 11, resamples: 500 },
    );
    const byIndices = bootstrapInterval(scores.length, shareOf(scores), {
      seed: 11,
      resamples: 500,
    });
    expect(byRecords.lo).toBeCloseTo(byIndices.lo!, 12);
    expect(byRecords.hi).toBeCloseTo(byIndices.hi!, 12);
  });
});
