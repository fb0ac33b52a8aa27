import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ComparedValue, compareRuns } from '../../src/domain/judge/runComparison.js';
import { pairedComparisonAccumulator, passAtK } from '../../src/domain/stats/index.js';

/** C(n, k) exactly, in big integers. */
function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let value = 1n;
  for (let i = 1; i <= k; i++) value = (value * BigInt(n - k + i)) / BigInt(i);
  return value;
}

/** 1 - C(n-c, k)/C(n, k), the definition, to 1e-15 by exact integers scaled before the one division. */
function passAtKByDefinition(n: number, c: number, k: number): number {
  const scale = 10n ** 18n;
  const allFail = (binomial(n - c, k) * scale) / binomial(n, k);
  return 1 - Number(allFail) / 1e18;
}

const trialsPassedK = fc
  .integer({ min: 1, max: 200 })
  .chain((n) => fc.tuple(fc.constant(n), fc.nat({ max: n }), fc.integer({ min: 1, max: n })));

describe('judge statistics properties', () => {
  it('pass@k equals its combinatorial definition 1 - C(n-c,k)/C(n,k) for every n <= 200', () => {
    fc.assert(
      fc.property(trialsPassedK, ([n, c, k]) => {
        expect(Math.abs(passAtK(n, c, k) - passAtKByDefinition(n, c, k))).toBeLessThan(1e-12);
      }),
      { numRuns: 300 },
    );
  });

  it('pass@k grows with the passes and with k, and stays in [0, 1]', () => {
    fc.assert(
      fc.property(trialsPassedK, ([n, c, k]) => {
        const value = passAtK(n, c, k);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
        if (c < n) expect(passAtK(n, c + 1, k)).toBeGreaterThanOrEqual(value - 1e-15);
        if (k < n) expect(passAtK(n, c, k + 1)).toBeGreaterThanOrEqual(value - 1e-15);
      }),
      { numRuns: 200 },
    );
  });

  /** Pairs (a, b) sharing a per-item level, as two runs over the same questions do. */
  const correlatedPairs = fc
    .array(
      fc.record({
        level: fc.double({ min: 0, max: 1, noNaN: true }),
        noiseA: fc.double({ min: -0.2, max: 0.2, noNaN: true }),
        noiseB: fc.double({ min: -0.2, max: 0.2, noNaN: true }),
      }),
      { minLength: 2, maxLength: 60 },
    )
    .map((items) => items.map(({ level, noiseA, noiseB }) => [level + noiseA, level + noiseB]));

  it('the paired standard error never exceeds the unpaired one on positively correlated data', () => {
    fc.assert(
      fc.property(correlatedPairs, (pairs) => {
        const n = pairs.length;
        const meanA = pairs.reduce((sum, [a]) => sum + a!, 0) / n;
        const meanB = pairs.reduce((sum, [, b]) => sum + b!, 0) / n;
        const covariance =
          pairs.reduce((sum, [a, b]) => sum + (a! - meanA) * (b! - meanB), 0) / (n - 1);
        fc.pre(covariance >= 0);
        const paired = pairedComparisonAccumulator();
        for (const [a, b] of pairs) paired.add(a!, b!);
        const { pairedStandardError, unpairedStandardError } = paired.result();
        expect(pairedStandardError!).toBeLessThanOrEqual(
          unpairedStandardError! * (1 + 1e-9) + 1e-12,
        );
      }),
      { numRuns: 300 },
    );
  });

  const run = fc
    .array(
      fc.record({
        pass: fc.constantFrom<number | null>(0, 1, null),
        score: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      }),
      { minLength: 1, maxLength: 80 },
    )
    .map(
      (values) =>
        new Map<string, ComparedValue>(values.map((value, index) => [`case-${index}`, value])),
    );

  it('compare(A, A) finds no difference: every difference 0, p 1, no run better, B not worse', () => {
    fc.assert(
      fc.property(run, fc.constantFrom(0.01, 0.05, 0.2), (values, alpha) => {
        const comparison = compareRuns(values, values, alpha);
        expect(comparison).toMatchObject({
          paired: values.size,
          onlyInA: 0,
          onlyInB: 0,
          better: null,
          bWorse: false,
        });
        for (const measure of [comparison.passRate, comparison.score]) {
          if (measure === null) continue;
          expect(measure.paired.meanDifference).toBe(0);
          expect(measure.better).toBeNull();
          if (measure.pValue !== null) expect(measure.pValue).toBe(1);
        }
        if (comparison.passRate?.table) {
          expect(
            comparison.passRate.table.onlyAPassed + comparison.passRate.table.onlyBPassed,
          ).toBe(0);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('swapping A and B mirrors the comparison: equal p-values, the other run better', () => {
    fc.assert(
      fc.property(run, run, (a, b) => {
        const forward = compareRuns(a, b, 0.05);
        const backward = compareRuns(b, a, 0.05);
        expect(backward.paired).toBe(forward.paired);
        // B - A is A - B negated bit for bit, so the tests' p-values are equal, not just close
        expect(backward.passRate?.pValue ?? null).toBe(forward.passRate?.pValue ?? null);
        expect(backward.score?.pValue ?? null).toBe(forward.score?.pValue ?? null);
        const mirror = { A: 'B', B: 'A', mixed: 'mixed' } as const;
        expect(backward.better).toBe(forward.better === null ? null : mirror[forward.better]);
      }),
      { numRuns: 150 },
    );
  });
});
