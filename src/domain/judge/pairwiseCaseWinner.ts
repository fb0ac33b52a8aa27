import { ERROR, joinOrders, LOSS, orderOutcome, pairKeyOf, WIN } from './pairOutcome.js';
import type { JudgeResult } from './result.js';

/** The judge's verdict of one whole pairwise case. */
export interface CaseWinner {
  readonly evaluationRunId: string;
  readonly caseId: string;
  /** The winning system, `tie`, or `null` when an order of one of its pairs ended in error. */
  readonly winner: string | null;
}

/** A case with pairs still to come: the first order of each pair waiting for its twin, and the points so far. */
interface OpenCase {
  pairsLeft: number;
  inError: boolean;
  readonly waiting: Map<string, { first: string; outcome: number }>;
  readonly points: Map<string, number>;
}

/**
 * The judge's winner of each pairwise case, folded from its results as they
 * come (in any order; a redelivered order is ignored). The two orders of a pair
 * join as the pairwise summary joins them: the same system both times wins
 * the pair, anything else (a tie both times, or inconsistent orders) is a tie.
 * The case's winner is the system with the most points over its pairs (a won
 * pair 1, a tie ½: Copeland's rule), `tie` when the most is shared; with two
 * candidates that is the pair's own result. Memory: the cases with a pair
 * still to come, never a text.
 *
 * @example
 * ```ts
 * const winners = pairwiseCaseWinners();
 * winners.add(result('c1', ['a', 'b'], 'first')); // null: its twin is still to come
 * winners.add(result('c1', ['b', 'a'], 'second')); // { evaluationRunId: 'run', caseId: 'c1', winner: 'a' }
 * ```
 */
export function pairwiseCaseWinners(): {
  /** Fold one order of one pair; the case's winner once its last pair is in, else `null`. */
  add(result: JudgeResult): CaseWinner | null;
  /** Cases with a pair still to come. */
  open(): number;
} {
  const cases = new Map<string, OpenCase>();
  return {
    add(result) {
      const pair = result.pair;
      if (pair === undefined) return null;
      const caseKey = pairKeyOf(result.evaluationRunId, result.caseId);
      let open = cases.get(caseKey);
      if (open === undefined) {
        open = {
          pairsLeft: (pair.candidates * (pair.candidates - 1)) / 2,
          inError: false,
          waiting: new Map(),
          points: new Map(),
        };
        cases.set(caseKey, open);
      }
      const [a, b] = pair.systems;
      const outcome = orderOutcome(result, a);
      const pairKey = pairKeyOf(a, b);
      const twin = open.waiting.get(pairKey);
      if (twin === undefined) {
        open.waiting.set(pairKey, { first: pair.first, outcome });
        return null;
      }
      // the same order again (a redelivery): its twin is still to come
      if (twin.first === pair.first) return null;
      open.waiting.delete(pairKey);
      const joined = joinOrders(twin.outcome, outcome);
      if (joined === ERROR) open.inError = true;
      else {
        const [pointsA, pointsB] = joined === WIN ? [1, 0] : joined === LOSS ? [0, 1] : [0.5, 0.5];
        open.points.set(a, (open.points.get(a) ?? 0) + pointsA);
        open.points.set(b, (open.points.get(b) ?? 0) + pointsB);
      }
      if (--open.pairsLeft > 0) return null;
      cases.delete(caseKey);
      return {
        evaluationRunId: result.evaluationRunId,
        caseId: result.caseId,
        winner: open.inError ? null : mostPoints(open.points),
      };
    },
    open: () => cases.size,
  };
}

/** The system with the most points, or `tie` when two or more share the most. */
function mostPoints(points: ReadonlyMap<string, number>): string {
  let best = Number.NEGATIVE_INFINITY;
  let leaders: string[] = [];
  for (const [system, total] of points) {
    if (total > best) {
      best = total;
      leaders = [system];
    } else if (total === best) leaders.push(system);
  }
  return leaders.length === 1 ? leaders[0]! : 'tie';
}
