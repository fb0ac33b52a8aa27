import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/domain/shared/random.js';
import {
  bettingConfidenceSequence,
  confidenceInterval,
  foldConfidenceSequence,
} from '../../../src/domain/stats/bettingConfidenceSequence.js';

function foldAll(results: readonly number[], total: number, alpha = 0.05) {
  let sequence = bettingConfidenceSequence({ alpha, total });
  const intervals: { lower: number; upper: number }[] = [];
  for (const result of results) {
    sequence = foldConfidenceSequence(sequence, result);
    intervals.push(confidenceInterval(sequence));
  }
  return intervals;
}

describe('bettingConfidenceSequence', () => {
  it('narrows around the mean of what was drawn', () => {
    const results = Array.from({ length: 400 }, (_, i) => (i % 10 < 9 ? 1 : 0));
    const intervals = foldAll(results, 10000);
    const last = intervals.at(-1)!;
    expect(last.lower).toBeGreaterThan(0.8);
    expect(last.upper).toBeLessThan(0.97);
    expect(last.lower).toBeLessThan(0.9);
    expect(last.upper).toBeGreaterThan(0.9);
    expect(last.upper - last.lower).toBeLessThan(intervals[49]!.upper - intervals[49]!.lower);
  });

  it('shrinks to the exact mean when the whole population is drawn', () => {
    const results = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1];
    expect(foldAll(results, 10).at(-1)).toEqual({ lower: 0.7, upper: 0.7 });
  });

  it('covers the population mean at every step in at least 95% of random populations', () => {
    const rng = createRng(11);
    let missed = 0;
    const populations = 200;
    for (let p = 0; p < populations; p++) {
      const total = 300;
      const rate = 0.3 + 0.6 * rng.next();
      const population = Array.from({ length: total }, (): number => (rng.next() < rate ? 1 : 0));
      const mean = population.reduce((a, b) => a + b, 0) / total;
      const intervals = foldAll(population.slice(0, 150), total);
      if (intervals.some(({ lower, upper }) => mean < lower || mean > upper)) missed++;
    }
    // alpha 0.05 plus three Monte Carlo standard errors at 200 populations
    expect(missed / populations).toBeLessThanOrEqual(0.05 + 3 * Math.sqrt((0.05 * 0.95) / 200));
  });
});
