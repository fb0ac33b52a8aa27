import { describe, expect, it } from 'vitest';
import { JudgeConfigurationError } from '../../../src/domain/judge/errors.js';
import { reducedSummaryAccumulator } from '../../../src/domain/judge/reducedSummary.js';
import type { JudgeResult } from '../../../src/domain/judge/result.js';
import { type ComparedValue, compareRuns } from '../../../src/domain/judge/runComparison.js';
import {
  judgeSummaryAccumulator,
  summarizeJudgeResults,
} from '../../../src/domain/judge/summary.js';
import {
  parseTrialReducer,
  reduceTrials,
  trialReducerAccumulator,
} from '../../../src/domain/judge/trialReducers.js';
import type { TrialJudgeResult } from '../../../src/domain/judge/trials.js';
import { clusteredMeanAccumulator, wilsonInterval } from '../../../src/domain/stats/index.js';

function trial(
  caseId: string,
  trialNumber: number,
  status: JudgeResult['status'],
  score: number | null,
): TrialJudgeResult {
  return {
    evaluationRunId: 'run',
    caseId,
    subjectId: caseId,
    status,
    score,
    trial: trialNumber,
  } as TrialJudgeResult;
}

describe('the judge summary carries its intervals', () => {
  it("gives the pass rate Wilson's interval over the results it counts, and the mean score a t interval", () => {
    const summary = summarizeJudgeResults([
      trial('a', 1, 'passed', 1),
      trial('b', 1, 'passed', 0.8),
      trial('c', 1, 'failed', 0.2),
      trial('d', 1, 'skipped', null),
    ]);
    expect(summary).toMatchObject({ n: 3, scored: 3, passRateCi: wilsonInterval(2, 3) });
    // scipy.stats.t.interval(0.95, 2, loc=mean([1, 0.8, 0.2]), scale=sem([1, 0.8, 0.2]))
    expect(summary.meanScoreCi?.low).toBeCloseTo(-0.3675623358806809, 9);
    expect(summary.meanScoreCi?.high).toBeCloseTo(1.700895669214014, 9);
    expect(summary.clusteredBy).toBeUndefined();
  });

  it('clusters the standard error by case when the results are trials, and says so', () => {
    const results = [
      ['a', 'passed'],
      ['a', 'passed'],
      ['b', 'failed'],
      ['b', 'failed'],
      ['c', 'passed'],
      ['c', 'failed'],
    ] as const;
    const summary = judgeSummaryAccumulator({ trials: 2 });
    const clustered = clusteredMeanAccumulator(2);
    for (const [index, [caseId, status]] of results.entries()) {
      summary.add(trial(caseId, (index % 2) + 1, status, null));
      clustered.add(caseId, status === 'passed' ? 1 : 0);
    }
    const { standardError } = clustered.result();
    const folded = summary.summary();
    expect(folded.clusteredBy).toEqual({ cases: 3, trials: 2 });
    expect(folded.passRate).toBe(0.5);
    expect(folded.passRateCi?.low).toBeCloseTo(
      Math.max(0, 0.5 - 1.959963984540054 * standardError!),
      12,
    );
    // the trials of a case agree: the clustered interval is wider than Wilson's over 6 independent results
    expect(folded.passRateCi!.high - folded.passRateCi!.low).toBeGreaterThan(
      wilsonInterval(3, 6)!.high - wilsonInterval(3, 6)!.low,
    );
  });
});

describe('trial reducers', () => {
  const trials = [
    trial('a', 1, 'passed', 0.9),
    trial('a', 2, 'failed', 0.3),
    trial('a', 3, 'passed', 0.9),
  ];

  it.each([
    ['mode', 1, 0.9],
    ['mean', 2 / 3, 0.7],
    ['median', 1, 0.9],
    ['max', 1, 0.9],
    ['min', 0, 0.3],
    ['pass_at_1', 2 / 3, 0.7],
    ['pass_at_2', 1, 0.7],
    ['at_least_2', 1, 0.7],
    ['at_least_3', 0, 0.7],
  ] as const)(
    '%s reduces passed, failed, passed (0.9, 0.3, 0.9) to pass value %d and score %d',
    (name, passValue, score) => {
      const reduced = reduceTrials(parseTrialReducer(name, 3), trials);
      expect(reduced).toMatchObject({
        kind: 'reduced',
        caseId: 'a',
        reducer: name,
        trials: 3,
        passed: 2,
      });
      expect(reduced.passValue).toBeCloseTo(passValue, 12);
      expect(reduced.score).toBeCloseTo(score, 12);
    },
  );

  it('mode calls a tie failed, and the lowest of tied scores', () => {
    const reduced = reduceTrials(parseTrialReducer('mode', 2), [
      trial('a', 1, 'passed', 1),
      trial('a', 2, 'failed', 0),
    ]);
    expect(reduced).toMatchObject({ passValue: 0, score: 0 });
  });

  it('leaves skipped trials out of a mean, and counts them as not passed for pass@k', () => {
    const mixed = [
      trial('a', 1, 'passed', 1),
      trial('a', 2, 'skipped', null),
      trial('a', 3, 'failed', 0),
    ];
    expect(reduceTrials(parseTrialReducer('mean', 3), mixed).passValue).toBe(0.5);
    expect(reduceTrials(parseTrialReducer('pass_at_1', 3), mixed).passValue).toBeCloseTo(1 / 3, 12);
    const skipped = [trial('b', 1, 'skipped', null), trial('b', 2, 'skipped', null)];
    expect(reduceTrials(parseTrialReducer('pass_at_1', 2), skipped).passValue).toBeNull();
  });

  it('refuses an unknown reducer and a K above the trials, naming them', () => {
    expect(() => parseTrialReducer('best', 3)).toThrow(JudgeConfigurationError);
    expect(() => parseTrialReducer('best', 3)).toThrow("unknown reducer 'best'");
    expect(() => parseTrialReducer('pass_at_5', 3)).toThrow(
      'pass_at_5 needs K from 1 to the trials (3), got 5',
    );
    expect(() => parseTrialReducer('at_least_0', 3)).toThrow('got 0');
  });

  it('hands a case back once its last trial is in, holding nothing after', () => {
    const reducing = trialReducerAccumulator(parseTrialReducer('max', 2), 2);
    expect(reducing.add(trial('a', 1, 'failed', 0))).toBeNull();
    expect(reducing.add(trial('b', 1, 'passed', 1))).toBeNull();
    expect(reducing.add(trial('a', 2, 'passed', 1))).toMatchObject({ caseId: 'a', passValue: 1 });
    expect(reducing.flush().map((reduced) => reduced.caseId)).toEqual(['b']);
    expect(reducing.flush()).toEqual([]);
  });

  it("folds reduced cases with Wilson's interval when each is a pass or a failure, else the t interval", () => {
    const binary = reducedSummaryAccumulator();
    const shares = reducedSummaryAccumulator();
    for (const [index, value] of [1, 0, 1, 1].entries()) {
      const base = reduceTrials(parseTrialReducer('mean', 1), [
        trial(`c${index}`, 1, 'passed', value),
      ]);
      binary.add({ ...base, passValue: value });
      shares.add({ ...base, passValue: value === 1 ? 0.75 : 0.25 });
    }
    expect(binary.rates()).toMatchObject({
      passRate: 0.75,
      n: 4,
      passRateCi: wilsonInterval(3, 4),
    });
    expect(shares.rates().passRate).toBe(0.625);
    expect(shares.rates().passRateCi?.low).toBeCloseTo(0.625 - 3.182446305284263 * 0.125, 9);
    expect(binary.cases).toBe(4);
  });
});

describe('compareRuns', () => {
  const values = (entries: readonly (readonly [number | null, number | null])[]) =>
    new Map<string, ComparedValue>(
      entries.map(([pass, score], index) => [`c${index}`, { pass, score }]),
    );

  it("counts the pairs, tables the verdicts and takes McNemar's p for pass/fail", () => {
    const a = values([
      [1, null],
      [1, null],
      [0, null],
      [0, null],
      [0, null],
      [1, null],
    ]);
    const b = values([
      [1, null],
      [0, null],
      [1, null],
      [1, null],
      [1, null],
    ]);
    const comparison = compareRuns(a, b, 0.05);
    expect(comparison).toMatchObject({
      paired: 5,
      onlyInA: 1,
      onlyInB: 0,
      score: null,
      better: null,
    });
    expect(comparison.passRate?.table).toEqual({
      bothPassed: 1,
      onlyAPassed: 1,
      onlyBPassed: 3,
      neitherPassed: 0,
    });
    expect(comparison.passRate?.test).toBe('mcnemar_exact');
    expect(comparison.passRate?.pValue).toBeCloseTo(0.625, 12);
  });

  it('names the better run when a paired test finds a difference, and B worse when it is A', () => {
    const a = values(Array.from({ length: 30 }, (_, index) => [null, index / 30] as const));
    const b = values(
      Array.from(
        { length: 30 },
        (_, index) => [null, index / 30 - 0.05 + (index % 3) * 0.001] as const,
      ),
    );
    const comparison = compareRuns(a, b, 0.05);
    expect(comparison.score?.better).toBe('A');
    expect(comparison).toMatchObject({ better: 'A', bWorse: true, passRate: null });
    expect(compareRuns(b, a, 0.05)).toMatchObject({ better: 'B', bWorse: false });
  });

  it('says mixed when the pass rate and the score disagree', () => {
    const a = values(
      Array.from({ length: 20 }, (_, index) => [1, index / 20 + (index % 2) * 0.001] as const),
    );
    const b = values(
      Array.from({ length: 20 }, (_, index) => [index < 12 ? 0 : 1, index / 20 + 0.1] as const),
    );
    const comparison = compareRuns(a, b, 0.05);
    expect(comparison.passRate?.better).toBe('A');
    expect(comparison.score?.better).toBe('B');
    expect(comparison).toMatchObject({ better: 'mixed', bWorse: true });
  });

  it('tests reduced shares with the paired t test, having no table', () => {
    const a = values([
      [0.5, null],
      [0.25, null],
      [1, null],
    ]);
    const b = values([
      [0.75, null],
      [0.5, null],
      [1, null],
    ]);
    const comparison = compareRuns(a, b, 0.05);
    expect(comparison.passRate).toMatchObject({ test: 'paired_t', table: null, mcnemar: null });
  });
});
