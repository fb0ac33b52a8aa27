import type { JudgeResult } from './result.js';

/** How a pair of systems came out in one case, for the pair's first system (names sorted). */
export const WIN = 0;
export const LOSS = 1;
export const TIE = 2;
export const INCONSISTENT = 3;
export const ERROR = 4;

/**
 * Names joined without ambiguity (each with its length before it): cheaper than JSON for every result.
 *
 * @example
 * ```ts
 * pairKeyOf('a', 'bc'); // '1:a2:bc'
 * ```
 */
export function pairKeyOf(one: string, other: string): string {
  return `${one.length}:${one}${other.length}:${other}`;
}

/**
 * One order's answer as an outcome for system `a`: its win, its loss, a tie, or an error.
 *
 * @example
 * ```ts
 * orderOutcome(resultOf({ systems: ['a', 'b'], first: 'b', second: 'a', winner: 'second' }), 'a'); // WIN
 * ```
 */
export function orderOutcome(result: JudgeResult, a: string): number {
  const pair = result.pair!;
  if (result.status === 'error' || pair.winner === null) return ERROR;
  if (pair.winner === 'tie') return TIE;
  const chosen = pair.winner === 'first' ? pair.first : pair.second;
  return chosen === a ? WIN : LOSS;
}

/**
 * The pair's outcome from its two orders: agreement stands, disagreement is inconsistent.
 *
 * @example
 * ```ts
 * joinOrders(WIN, WIN); // WIN
 * joinOrders(WIN, TIE); // INCONSISTENT
 * ```
 */
export function joinOrders(one: number, other: number): number {
  if (one === ERROR || other === ERROR) return ERROR;
  return one === other ? one : INCONSISTENT;
}
