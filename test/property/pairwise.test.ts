import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairwiseAccumulator } from '../../src/domain/judge/pairwiseSummary.js';
import type { JudgeResult, PairWinner } from '../../src/domain/judge/result.js';
import { bradleyTerry } from '../../src/domain/stats/bradleyTerry.js';
import { bothOrders } from '../support/pairwiseResults.js';

const answer = fc.constantFrom<PairWinner | null>(
  'first',
  'second',
  'tie',
  'first',
  'second',
  null,
);
/** The answers of both orders of pair (a, b) over some cases. */
const orders = fc.array(fc.tuple(answer, answer), { minLength: 1, maxLength: 30 });

function fold(results: readonly JudgeResult[]) {
  const accumulator = pairwiseAccumulator({ seed: 5, resamples: 20 });
  for (const result of results) accumulator.add(result);
  return accumulator.summary();
}

function resultsOf(
  answers: readonly (readonly [PairWinner | null, PairWinner | null])[],
  a = 'a',
  b = 'b',
): JudgeResult[] {
  return answers.flatMap(([forward, reverse], index) =>
    bothOrders(`c${index}`, a, b, forward, reverse),
  );
}

describe('pairwise judging: properties', () => {
  it('swapping the answers of the two orders leaves position consistency and first-slot rate unchanged', () => {
    fc.assert(
      fc.property(orders, (answers) => {
        const original = fold(resultsOf(answers));
        const swapped = fold(resultsOf(answers.map(([forward, reverse]) => [reverse, forward])));
        expect(swapped.positionConsistency).toBe(original.positionConsistency);
        expect(swapped.firstSlotRate).toBe(original.firstSlotRate);
        expect(swapped.byPair[0]?.inconsistent).toBe(original.byPair[0]?.inconsistent);
      }),
      { numRuns: 100 },
    );
  });

  it('the win rate of A over B plus that of B over A is 1', () => {
    fc.assert(
      fc.property(orders, (answers) => {
        // the same answers with the systems' names exchanged: b is shown where a was
        const ab = fold(resultsOf(answers, 'a', 'b')).byPair[0]!;
        const ba = fold(resultsOf(answers, 'b', 'a')).byPair[0]!;
        if (ab.winRate === null) expect(ba.winRate).toBeNull();
        else expect(ab.winRate + ba.winRate!).toBeCloseTo(1, 12);
        expect(ab.wins).toBe(ba.losses);
      }),
      { numRuns: 100 },
    );
  });

  it('the fold does not depend on the order results arrive in', () => {
    fc.assert(
      fc.property(
        orders.chain((answers) => {
          const results = resultsOf(answers);
          return fc.tuple(
            fc.constant(results),
            fc.shuffledSubarray(results, { minLength: results.length }),
          );
        }),
        ([results, shuffled]) => {
          const { byPair, positionConsistency, firstSlotRate, errorPairs } = fold(results);
          const again = fold(shuffled);
          expect(again.byPair[0]).toMatchObject({
            wins: byPair[0]?.wins,
            losses: byPair[0]?.losses,
            ties: byPair[0]?.ties,
            inconsistent: byPair[0]?.inconsistent,
          });
          expect([again.positionConsistency, again.firstSlotRate, again.errorPairs]).toEqual([
            positionConsistency,
            firstSlotRate,
            errorPairs,
          ]);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('Bradley-Terry ratings have mean 1000 and follow the systems when their order changes', () => {
    const size = 4;
    const count = fc.integer({ min: 0, max: 12 }).map((halves) => halves / 2);
    const matrix = fc.array(fc.array(count, { minLength: size, maxLength: size }), {
      minLength: size,
      maxLength: size,
    });
    fc.assert(
      fc.property(matrix, fc.shuffledSubarray([0, 1, 2, 3], { minLength: size }), (wins, order) => {
        const ratings = bradleyTerry(wins).ratings;
        const mean = ratings.reduce((sum, rating) => sum + rating, 0) / size;
        expect(mean).toBeCloseTo(1000, 8);
        const permuted = order.map((i) => order.map((j) => wins[i]![j]!));
        const again = bradleyTerry(permuted).ratings;
        order.forEach((original, position) => {
          expect(again[position]!).toBeCloseTo(ratings[original]!, 6);
        });
      }),
      { numRuns: 100 },
    );
  });
});
