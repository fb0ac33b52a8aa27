import { arenaErrorClass } from '../shared/errors.js';

/**
 * Bad input to `bradleyTerry`: a matrix of the wrong shape, or a count that is not a finite, non-negative number.
 *
 * @example
 * ```ts
 * bradleyTerry([[0, -1], [1, 0]]);
 * // throws BradleyTerryInputError (code BRADLEY_TERRY_INPUT): wins[0][1] must be a finite number at least 0, got -1
 * ```
 */
export class BradleyTerryInputError extends arenaErrorClass('BRADLEY_TERRY_INPUT') {}

/**
 * Points of the Elo scale per unit of log strength: 400 / ln 10.
 *
 * @example
 * ```ts
 * ELO_PER_LOG_STRENGTH; // 173.71779276130073
 * ```
 */
export const ELO_PER_LOG_STRENGTH = 400 / Math.LN10;

/**
 * The mean of every fit's ratings.
 *
 * @example
 * ```ts
 * MEAN_RATING; // 1000
 * ```
 */
export const MEAN_RATING = 1000;

/** Converged when no log strength moves by more than this in one MM step. */
const TOLERANCE = 1e-13;
const MOST_ITERATIONS = 100_000;

/** A Bradley-Terry fit: one Elo-scale rating per system, in the input's order. */
export interface BradleyTerryFit {
  readonly ratings: readonly number[];
  /** The data had no finite maximum-likelihood fit, so one virtual tie per pair was added (see `bradleyTerry`). */
  readonly regularized: boolean;
  readonly iterations: number;
}

/**
 * Bradley-Terry ratings by maximum likelihood, with the MM algorithm of Hunter
 * (2004), "MM algorithms for generalized Bradley-Terry models", Ann. Statist. 32(1).
 *
 * `wins[i][j]` is how often system i beat system j, a tie counting as half a
 * win to each side. The ratings are on the Elo scale (`400 / ln 10` times the
 * log strength) and their mean is 1000.
 *
 * The fit exists only when no group of systems never beats the others (Hunter's
 * condition; a system that never wins or never loses breaks it). Then arena
 * adds one virtual tie (half a win each way) between every pair of systems and
 * fits that, saying `regularized: true`: ratings stay finite, in the data's order.
 *
 * @throws BradleyTerryInputError for a non-square matrix, fewer than two
 * systems, or a negative or non-finite count.
 * @example
 * ```ts
 * bradleyTerry([[0, 3], [1, 0]]);
 * // { ratings: [1095.4242509439325, 904.5757490560675], regularized: false, iterations: 2 }
 * ```
 */
export function bradleyTerry(wins: readonly (readonly number[])[]): BradleyTerryFit {
  const size = checkedSize(wins);
  const regularized = !hasFiniteFit(wins, size);
  const counts = regularized
    ? wins.map((row, i) => row.map((count, j) => (i === j ? 0 : count + 0.5)))
    : wins;
  const totalWins = counts.map((row, i) =>
    row.reduce((sum, count, j) => sum + (i === j ? 0 : count), 0),
  );
  const games = counts.map((row, i) =>
    row.map((count, j) => (i === j ? 0 : count + counts[j]![i]!)),
  );
  let logStrength: number[] = new Array<number>(size).fill(0);
  let iterations = 0;
  for (; iterations < MOST_ITERATIONS; iterations++) {
    const strength = logStrength.map(Math.exp);
    const next = strength.map((own, i) => {
      let denominator = 0;
      for (let j = 0; j < size; j++) {
        if (j !== i && games[i]![j]! > 0) denominator += games[i]![j]! / (own + strength[j]!);
      }
      return Math.log(totalWins[i]! / denominator);
    });
    const centre = mean(next);
    const centred = next.map((value) => value - centre);
    const moved = Math.max(...centred.map((value, i) => Math.abs(value - logStrength[i]!)));
    logStrength = centred;
    if (moved < TOLERANCE) {
      iterations++;
      break;
    }
  }
  return {
    ratings: logStrength.map((value) => MEAN_RATING + ELO_PER_LOG_STRENGTH * value),
    regularized,
    iterations,
  };
}

function checkedSize(wins: readonly (readonly number[])[]): number {
  const size = wins.length;
  if (size < 2) {
    throw new BradleyTerryInputError(`expected at least two systems, got ${size}`);
  }
  wins.forEach((row, i) => {
    if (row.length !== size) {
      throw new BradleyTerryInputError(`row ${i} has ${row.length} counts, expected ${size}`);
    }
    row.forEach((count, j) => {
      if (!(Number.isFinite(count) && count >= 0)) {
        throw new BradleyTerryInputError(
          `wins[${i}][${j}] must be a finite number at least 0, got ${count}`,
        );
      }
    });
  });
  return size;
}

/**
 * Hunter's condition: in the directed graph with an edge i -> j when i beat j
 * at least a half time, every system reaches every other (strongly connected).
 */
function hasFiniteFit(wins: readonly (readonly number[])[], size: number): boolean {
  const reaches = (forward: boolean): boolean => {
    const seen = new Set<number>([0]);
    const stack = [0];
    while (stack.length > 0) {
      const from = stack.pop()!;
      for (let to = 0; to < size; to++) {
        const count = forward ? wins[from]![to]! : wins[to]![from]!;
        if (to !== from && count > 0 && !seen.has(to)) {
          seen.add(to);
          stack.push(to);
        }
      }
    }
    return seen.size === size;
  };
  return reaches(true) && reaches(false);
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
