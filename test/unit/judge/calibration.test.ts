import { describe, expect, it } from 'vitest';
import { calibrationAccumulator } from '../../../src/domain/judge/calibration.js';
import { JudgeLabelsError } from '../../../src/domain/judge/errors.js';
import { labelReferences, parseLabelLine } from '../../../src/domain/judge/labels.js';
import {
  cohenKappa,
  confusionMatrix,
  meanAbsoluteDifference,
  spearman,
} from '../../../src/domain/stats/index.js';

const judge = ['passed', 'passed', 'failed', 'passed', 'failed', 'skipped', 'passed', 'failed'];
const reference = ['passed', 'failed', 'failed', 'passed', 'passed', 'skipped', 'passed', 'failed'];
const judgeScores = [0.9, 0.7, 0.1, 0.8, 0.2, 0.5, 1, 0];
const referenceScores = [1, 0.2, 0, 0.9, 0.6, 0.5, 0.9, 0.1];

describe('the calibration fold', () => {
  const fold = () => {
    const calibration = calibrationAccumulator({ categories: ['passed', 'failed', 'skipped'] });
    judge.forEach((status, i) => {
      calibration.add({
        caseId: `c${i}`,
        judge: status,
        reference: reference[i]!,
        judgeScore: judgeScores[i]!,
        referenceScore: referenceScores[i]!,
      });
    });
    calibration.add({ caseId: 'err', judge: null, reference: 'failed' });
    return calibration;
  };

  it('gives the figures of the statistics over the same pairs, errors left out and listed', () => {
    const figures = fold().figures({ seed: 3, bootstrap: 500 });
    expect(figures.n).toBe(8);
    expect(figures.errors).toEqual(['err']);
    expect(figures.agreement).toBe(6 / 8);
    expect(figures.kappa).toBeCloseTo(cohenKappa(judge, reference)!, 12);
    const labels = ['passed', 'failed', 'skipped'];
    expect(figures.confusion).toEqual(confusionMatrix(judge, reference, labels));
    expect(figures.falsePasses).toEqual(['c1']);
    expect(figures.falseFails).toEqual(['c4']);
    expect(figures.falsePassRate).toBe(1 / 3);
    expect(figures.perStatus.passed).toEqual({
      precision: 0.75,
      recall: 0.75,
      f1: 0.75,
      support: 4,
    });
    expect(figures.spearman).toBeCloseTo(spearman(judgeScores, referenceScores)!, 12);
    expect(figures.meanAbsoluteDifference).toBeCloseTo(
      meanAbsoluteDifference(judgeScores, referenceScores)!,
      12,
    );
    expect(figures.kappaCi![0]).toBeLessThanOrEqual(figures.kappa!);
    expect(figures.kappaCi![1]).toBeGreaterThanOrEqual(figures.kappa!);
  });

  it('gives the same interval for the same seed', () => {
    expect(fold().figures({ seed: 9, bootstrap: 300 }).kappaCi).toEqual(
      fold().figures({ seed: 9, bootstrap: 300 }).kappaCi,
    );
  });

  it('takes any categories: a pairwise winner folds the same way', () => {
    const calibration = calibrationAccumulator();
    calibration.add({ caseId: 'a', judge: 'gpt', reference: 'gpt' });
    calibration.add({ caseId: 'b', judge: 'tie', reference: 'claude' });
    calibration.add({ caseId: 'c', judge: 'claude', reference: 'claude' });
    const figures = calibration.figures({ seed: 1, bootstrap: 50 });
    expect(figures.confusion.labels).toEqual(['claude', 'gpt', 'tie']);
    expect(figures.disagreements).toEqual([{ caseId: 'b', judge: 'tie', reference: 'claude' }]);
    expect(figures.falsePasses).toEqual([]);
  });
});

describe('labels', () => {
  it('reads a line and names the file, line and field of a bad one', () => {
    expect(parseLabelLine('{"case_id":"c1","status":"failed","score":0}', 'l.jsonl', 4)).toEqual({
      caseId: 'c1',
      verdict: 'failed',
      score: 0,
      annotator: null,
    });
    expect(() => parseLabelLine('{"case_id":"c1","status":"pass"}', 'l.jsonl', 2)).toThrow(
      /^l\.jsonl:2: status: .*"passed"\|"failed"\|"skipped"/,
    );
    expect(() => parseLabelLine('{"case_id":', 'l.jsonl', 3)).toThrow(JudgeLabelsError);
    expect(() => parseLabelLine('{"case_id":"c","status":"passed","x":1}', 'l.jsonl', 5)).toThrow(
      /^l\.jsonl:5: /,
    );
  });

  it('takes the majority of the annotators, leaves a tie out, and measures their agreement', () => {
    const labels = [
      ['a', 'passed', 'passed', 'passed'],
      ['b', 'failed', 'failed', 'passed'],
      ['c', 'passed', 'failed', 'skipped'],
      ['d', 'failed', 'failed', 'failed'],
    ].flatMap(([caseId, ...statuses]) =>
      statuses.map((status, i) => ({
        caseId: caseId!,
        verdict: status!,
        score: null,
        annotator: ['ana', 'bo', 'cy'][i]!,
      })),
    );
    const result = labelReferences(labels);
    expect(result.references.get('a')?.verdict).toBe('passed');
    expect(result.references.get('b')?.verdict).toBe('failed');
    expect(result.annotatorTies).toEqual(['c']);
    expect(result.annotators).toEqual(['ana', 'bo', 'cy']);
    expect(result.annotatorKappaCases).toBe(4);
    // statsmodels' fleiss_kappa of [[3,0,0],[1,2,0],[1,1,1],[0,3,0]]: the same table by hand
    const p = [5 / 12, 6 / 12, 1 / 12];
    const chance = p.reduce((s, x) => s + x * x, 0);
    const mean = (1 + 1 / 3 + 0 + 1) / 4;
    expect(result.annotatorKappa).toBeCloseTo((mean - chance) / (1 - chance), 12);
  });
});
