import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calibrationAccumulator, pickCells } from '../../../src/domain/judge/calibration.js';
import { pairwiseCaseWinners } from '../../../src/domain/judge/pairwiseCaseWinner.js';
import type { JudgeResult, PairWinner } from '../../../src/domain/judge/result.js';
import { bothOrders, pairResult } from '../../support/pairwiseResults.js';

interface PairwiseReference {
  name: string;
  cases: {
    caseId: string;
    systems: string[];
    answers: [string, string, PairWinner][];
    reference: string;
  }[];
  judge: string[];
  labels: string[];
  matrix: number[][];
  kappa: number | null;
  agreement: number;
  perLabel: Record<
    string,
    { precision: number | null; recall: number | null; f1: number | null; support: number }
  >;
}

// written once by scripts/stats-reference-agreement.py: the case winners folded by the script, figures by scikit-learn
const reference = (
  JSON.parse(
    readFileSync(new URL('../../fixtures/stats/agreement.json', import.meta.url), 'utf8'),
  ) as { pairwise: PairwiseReference[] }
).pairwise;

const tolerance = 1e-9;

function expectClose(actual: number | null | undefined, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(tolerance);
}

/** Every case's winner, from its answers arriving in the order given. */
function winnersOf(results: readonly JudgeResult[]): Map<string, string | null> {
  const fold = pairwiseCaseWinners();
  const winners = new Map<string, string | null>();
  for (const result of results) {
    const whole = fold.add(result);
    if (whole !== null) winners.set(whole.caseId, whole.winner);
  }
  expect(fold.open()).toBe(0);
  return winners;
}

describe('pairwise calibration against scikit-learn', () => {
  it('holds the three reference sets', () => {
    expect(reference.map((each) => each.cases.length)).toEqual([40, 60, 50]);
  });

  it.each(reference.map((each) => [each.name, each] as const))(
    'case winners, confusion matrix, kappa, precision, recall and F1 agree on %s',
    (_name, data) => {
      const results = data.cases.flatMap((each) =>
        each.answers.map(([first, second, winner]) =>
          pairResult(each.caseId, first, second, winner, each.systems.length),
        ),
      );
      // the answers of all cases interleaved, last first: the fold does not care how they arrive
      const winners = winnersOf(results.reverse());
      expect(data.cases.map((each) => winners.get(each.caseId))).toEqual(data.judge);
      const calibration = calibrationAccumulator({ categories: data.labels });
      for (const each of data.cases) {
        calibration.add({
          caseId: each.caseId,
          judge: winners.get(each.caseId)!,
          reference: each.reference,
        });
      }
      const figures = calibration.figures({ seed: 0, bootstrap: 50 });
      expect(figures.confusion).toEqual({ labels: data.labels, matrix: data.matrix });
      expectClose(figures.kappa, data.kappa);
      expectClose(figures.agreement, data.agreement);
      for (const label of data.labels) {
        const expected = data.perLabel[label]!;
        const actual = figures.perStatus[label]!;
        expectClose(actual.precision, expected.precision);
        expectClose(actual.recall, expected.recall);
        expectClose(actual.f1, expected.f1);
        expect(actual.support).toBe(expected.support);
      }
    },
  );
});

describe("a pairwise case's winner", () => {
  it('is the system chosen in both orders; a tie both times or inconsistent orders is a tie', () => {
    const winners = winnersOf([
      ...bothOrders('won', 'a', 'b', 'second', 'first'),
      ...bothOrders('tied', 'a', 'b', 'tie', 'tie'),
      ...bothOrders('inconsistent', 'a', 'b', 'first', 'first'),
    ]);
    expect(Object.fromEntries(winners)).toEqual({ won: 'b', tied: 'tie', inconsistent: 'tie' });
  });

  it('with three systems is the one with the most points, a tie when the most is shared', () => {
    const winners = winnersOf([
      // a beats b, a and c tie, b and c inconsistent: a 1.5, b 0.5, c 1
      ...bothOrders('points', 'a', 'b', 'first', 'second', 3),
      ...bothOrders('points', 'a', 'c', 'tie', 'tie', 3),
      ...bothOrders('points', 'b', 'c', 'first', 'first', 3),
      // a cycle: a beats b, b beats c, c beats a
      ...bothOrders('cycle', 'a', 'b', 'first', 'second', 3),
      ...bothOrders('cycle', 'b', 'c', 'first', 'second', 3),
      ...bothOrders('cycle', 'c', 'a', 'first', 'second', 3),
    ]);
    expect(Object.fromEntries(winners)).toEqual({ points: 'a', cycle: 'tie' });
  });

  it('is null (an error) when an order of one of its pairs ended in error, and a redelivered order is ignored', () => {
    const fold = pairwiseCaseWinners();
    const [forward, reverse] = bothOrders('c', 'a', 'b', 'first', null);
    expect(fold.add(forward!)).toBeNull();
    expect(fold.add(forward!)).toBeNull();
    expect(fold.add(reverse!)).toEqual({ evaluationRunId: 'run', caseId: 'c', winner: null });
    expect(fold.open()).toBe(0);
  });
});

describe('the dangerous cells of a pairwise calibration', () => {
  it('are a winner people did not name, and a winner the judge missed', () => {
    const calibration = calibrationAccumulator({ categories: ['a', 'b', 'tie'] });
    calibration.add({ caseId: 'reversed', judge: 'a', reference: 'b' });
    calibration.add({ caseId: 'picked', judge: 'b', reference: 'tie' });
    calibration.add({ caseId: 'missed', judge: 'tie', reference: 'a' });
    calibration.add({ caseId: 'right', judge: 'a', reference: 'a' });
    expect(pickCells(calibration.figures({ seed: 0, bootstrap: 10 }))).toEqual({
      falsePicks: ['reversed', 'picked'],
      missedPicks: ['missed'],
      falsePickRate: 2 / 3,
    });
  });
});
