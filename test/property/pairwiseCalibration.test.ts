import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrationAccumulator } from '../../src/domain/judge/calibration.js';
import { pairwiseCaseWinners } from '../../src/domain/judge/pairwiseCaseWinner.js';
import type { JudgeResult, PairWinner } from '../../src/domain/judge/result.js';
import { pairResult } from '../support/pairwiseResults.js';

const SYSTEMS = ['a', 'b', 'c', 'd'];
const slot = fc.constantFrom<PairWinner>('first', 'second', 'tie');

/** A case: 2-4 of the systems, an answer for both orders of each pair, and people's winner. */
const pairwiseCase = fc
  .shuffledSubarray(SYSTEMS, { minLength: 2, maxLength: 4 })
  .chain((systems) => {
    const sorted = [...systems].sort();
    const pairs = sorted.flatMap((a, i) => sorted.slice(i + 1).map((b) => [a, b] as const));
    return fc.record({
      systems: fc.constant(sorted),
      answers: fc.array(fc.tuple(slot, slot), {
        minLength: pairs.length,
        maxLength: pairs.length,
      }),
      reference: fc.constantFrom(...sorted, 'tie'),
    });
  });
const cases = fc.array(pairwiseCase, { minLength: 2, maxLength: 30 });

/** Every order of every pair of every case as results, the systems renamed by `name`. */
function resultsOf(
  list: readonly { systems: string[]; answers: [PairWinner, PairWinner][] }[],
  name: (system: string) => string,
): JudgeResult[] {
  return list.flatMap((each, index) => {
    const pairs = each.systems.flatMap((a, i) =>
      each.systems.slice(i + 1).map((b) => [a, b] as const),
    );
    return pairs.flatMap(([a, b], pair) => [
      pairResult(`c${index}`, name(a), name(b), each.answers[pair]![0], each.systems.length),
      pairResult(`c${index}`, name(b), name(a), each.answers[pair]![1], each.systems.length),
    ]);
  });
}

function kappaOf(
  list: readonly { systems: string[]; answers: [PairWinner, PairWinner][]; reference: string }[],
  name: (system: string) => string,
  order: (results: JudgeResult[]) => JudgeResult[] = (results) => results,
): { kappa: number | null; winners: (string | null)[] } {
  const fold = pairwiseCaseWinners();
  const winners = new Map<string, string | null>();
  for (const result of order(resultsOf(list, name))) {
    const whole = fold.add(result);
    if (whole !== null) winners.set(whole.caseId, whole.winner);
  }
  const calibration = calibrationAccumulator();
  list.forEach((each, index) => {
    calibration.add({
      caseId: `c${index}`,
      judge: winners.get(`c${index}`)!,
      reference: each.reference === 'tie' ? 'tie' : name(each.reference),
    });
  });
  return {
    kappa: calibration.figures({ seed: 0, bootstrap: 1 }).kappa,
    winners: list.map((_, index) => winners.get(`c${index}`)!),
  };
}

const close = (x: number | null, y: number | null): boolean =>
  x === null ? y === null : y !== null && Math.abs(x - y) <= 1e-12;

describe('pairwise calibration', () => {
  it("is unchanged by renaming the systems (even when the names' order changes), the winners renamed with them", () => {
    const renaming = fc.shuffledSubarray(['zeta', 'eta', 'theta', 'iota', 'kappa'], {
      minLength: 4,
      maxLength: 4,
    });
    fc.assert(
      fc.property(cases, renaming, (list, names) => {
        const name = (system: string) => names[SYSTEMS.indexOf(system)]!;
        const plain = kappaOf(list, (system) => system);
        const renamed = kappaOf(list, name);
        expect(close(renamed.kappa, plain.kappa)).toBe(true);
        expect(renamed.winners).toEqual(
          plain.winners.map((winner) =>
            winner === null || winner === 'tie' ? winner : name(winner),
          ),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same winners whatever order the judgements arrive in', () => {
    fc.assert(
      fc.property(cases, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (list, seed) => {
        const shuffled = (results: JudgeResult[]) => {
          const order = results.map((_, index) => ((index + 1) * (seed | 1)) % 2147483647);
          return results
            .map((result, index) => ({ result, key: order[index]! }))
            .sort((x, y) => x.key - y.key)
            .map(({ result }) => result);
        };
        const plain = kappaOf(list, (system) => system);
        expect(kappaOf(list, (system) => system, shuffled).winners).toEqual(plain.winners);
      }),
      { numRuns: 150 },
    );
  });
});
