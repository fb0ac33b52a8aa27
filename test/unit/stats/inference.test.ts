import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addMoment,
  clusteredMeanAccumulator,
  emptyMoments,
  formatInterval,
  mcnemarExact,
  meanInterval,
  pairedComparisonAccumulator,
  passAtK,
  StatisticsInputError,
  standardErrorOfMean,
  wilsonInterval,
} from '../../../src/domain/stats/index.js';

/** What scripts/stats-reference-inference.py wrote from SciPy and statsmodels. */
interface Reference {
  wilson: { successes: number; trials: number; low: number; high: number }[];
  meanInterval: {
    values: number[];
    mean: number;
    standardError: number;
    low: number;
    high: number;
  }[];
  paired: {
    a: number[];
    b: number[];
    meanDifference: number;
    pairedStandardError: number;
    t: number;
    pValue: number;
    low: number;
    high: number;
    unpairedStandardError: number;
    unpairedStandardErrorFromTTestInd: number | null;
  }[];
  mcnemar: { b: number; c: number; statistic: number; pValue: number }[];
  passAtK: { n: number; c: number; k: number; passAtK: number }[];
  clustered: {
    values: number[];
    clusterSize: number;
    clusters: number[];
    mean: number;
    standardError: number;
    naiveStandardError: number;
  }[];
}

const reference = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../fixtures/stats/inference.json'), 'utf8'),
) as Reference;

/** The agreement the issue asks of every statistic: 1e-9 of SciPy's or statsmodels' value. */
const TOLERANCE = 1e-9;
const near = (actual: number | null | undefined, expected: number): void => {
  expect(actual).not.toBeNull();
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(TOLERANCE);
};

function momentsOf(values: readonly number[]) {
  const moments = emptyMoments();
  for (const value of values) addMoment(moments, value);
  return moments;
}

describe('the Wilson interval', () => {
  it.each(reference.wilson)(
    'agrees with statsmodels proportion_confint(wilson) for $successes of $trials',
    ({ successes, trials, low, high }) => {
      const interval = wilsonInterval(successes, trials);
      near(interval?.low, low);
      near(interval?.high, high);
    },
  );

  it('is null for no trials and refuses counts that are not counts', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(() => wilsonInterval(4, 3)).toThrow(StatisticsInputError);
    expect(() => wilsonInterval(1.5, 3)).toThrow(/successes must be an integer from 0 to trials/);
  });
});

describe('the t interval of a mean', () => {
  it.each(reference.meanInterval.map((entry) => ({ ...entry, n: entry.values.length })))(
    'agrees with scipy t.interval over $n values',
    ({ values, mean, standardError, low, high }) => {
      const moments = momentsOf(values);
      near(moments.mean, mean);
      near(standardErrorOfMean(moments), standardError);
      const interval = meanInterval(moments);
      near(interval?.low, low);
      near(interval?.high, high);
    },
  );

  it('is null for one value: a spread needs two', () => {
    expect(meanInterval(momentsOf([0.5]))).toBeNull();
  });
});

describe('the paired comparison', () => {
  it.each(reference.paired.map((entry) => ({ ...entry, n: entry.a.length })))(
    'agrees with scipy ttest_rel, t.interval and the unpaired sem over $n pairs',
    (entry) => {
      const paired = pairedComparisonAccumulator();
      for (const [index, a] of entry.a.entries()) paired.add(a, entry.b[index]!);
      const result = paired.result();
      near(result.meanDifference, entry.meanDifference);
      near(result.pairedStandardError, entry.pairedStandardError);
      near(result.t, entry.t);
      near(result.pValue, entry.pValue);
      near(result.interval?.low, entry.low);
      near(result.interval?.high, entry.high);
      near(result.unpairedStandardError, entry.unpairedStandardError);
      if (entry.unpairedStandardErrorFromTTestInd !== null) {
        near(result.unpairedStandardError, entry.unpairedStandardErrorFromTTestInd);
      }
    },
  );

  it('finds nothing when every difference is 0 (t 0, p 1), where SciPy gives nan', () => {
    const paired = pairedComparisonAccumulator();
    for (const value of [0.1, 0.4, 0.9]) paired.add(value, value);
    expect(paired.result()).toMatchObject({ meanDifference: 0, t: 0, pValue: 1 });
  });
});

describe("McNemar's exact test", () => {
  it.each(reference.mcnemar)(
    'agrees with statsmodels mcnemar(exact=True) for b $b, c $c',
    ({ b, c, statistic, pValue }) => {
      const test = mcnemarExact(b, c);
      expect(test.statistic).toBe(statistic);
      near(test.pValue, pValue);
    },
  );
});

describe('pass@k', () => {
  it.each(reference.passAtK)(
    'agrees with 1 - comb(n-c, k)/comb(n, k) for n $n, c $c, k $k',
    ({ n, c, k, passAtK: expected }) => {
      near(passAtK(n, c, k), expected);
    },
  );

  it('refuses k above the trials, naming both', () => {
    expect(() => passAtK(3, 1, 5)).toThrow(
      'pass@k needs k <= n (the trials of a case), got k 5 with n 3',
    );
  });
});

describe('the clustered standard error', () => {
  it.each(reference.clustered.map((entry) => ({ ...entry, n: entry.values.length })))(
    "agrees with statsmodels OLS cov_type='cluster' over $n values in clusters of $clusterSize",
    ({ values, clusterSize, clusters, mean, standardError, naiveStandardError }) => {
      const clustered = clusteredMeanAccumulator(clusterSize);
      for (const [index, value] of values.entries()) clustered.add(String(clusters[index]), value);
      const result = clustered.result();
      near(result.mean, mean);
      near(result.standardError, standardError);
      expect(result.degreesOfFreedom).toBe(values.length / clusterSize - 1);
      // the data sets hold correlated trials: the naive error understates them
      if (clusterSize > 2) expect(result.standardError!).toBeGreaterThan(naiveStandardError);
    },
  );

  it('leaves an entry that is no observation out of the mean but counts it to close its cluster', () => {
    const clustered = clusteredMeanAccumulator(2);
    for (const [key, value] of [
      ['a', 1],
      ['a', null],
      ['b', 0],
      ['b', 0],
    ] as const) {
      clustered.add(key, value);
    }
    expect(clustered.result()).toMatchObject({ n: 3, clusters: 2, mean: 1 / 3 });
  });
});

describe('formatInterval', () => {
  it('reads as a range, with "to" when the low end is negative', () => {
    expect(formatInterval({ low: 0.68, high: 0.76 })).toBe('0.68-0.76');
    expect(formatInterval({ low: -0.12345, high: 0.5 })).toBe('-0.1235 to 0.5');
  });
});
