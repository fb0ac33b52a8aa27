import { bootstrapInterval, DEFAULT_BOOTSTRAP_RESAMPLES } from '../stats/bootstrap.js';
import { bradleyTerry } from '../stats/bradleyTerry.js';
import { percentileOfSorted } from '../stats/percentile.js';
import { ERROR, joinOrders, LOSS, orderOutcome, pairKeyOf, WIN } from './pairOutcome.js';
import type { JudgeResult } from './result.js';

/** One pair of systems over every case that compares them. */
export interface PairTally {
  /** The two systems, sorted; the counts are for the first. */
  readonly systems: readonly [string, string];
  /** Cases whose pair was answered in both orders: wins + losses + ties + inconsistent. */
  readonly judged: number;
  /** The first system's output won in both orders. */
  readonly wins: number;
  readonly losses: number;
  /** A tie in both orders. */
  readonly ties: number;
  /** The two orders disagreed: counted as a tie. */
  readonly inconsistent: number;
  /** Cases where an order of this pair ended in error: not judged. */
  readonly errors: number;
  /** `(wins + 0.5 (ties + inconsistent)) / judged`; `null` when none was judged. */
  readonly winRate: number | null;
  /** 95% percentile bootstrap interval of `winRate` over the pair's cases. */
  readonly winRateCi: readonly [number, number] | null;
}

/** A system's Bradley-Terry rating with its bootstrap interval. */
export interface SystemRating {
  readonly system: string;
  readonly rating: number;
  readonly ratingCi: readonly [number, number] | null;
}

/** What a pairwise run came to. */
export interface PairwiseSummary {
  /** Cases with at least one pair answered in both orders. */
  readonly cases: number;
  /** Pairs of a case answered in both orders. */
  readonly pairs: number;
  /** Pairs of a case with an order in error. */
  readonly errorPairs: number;
  /** Pairs of a case with one order in and the other never seen. */
  readonly unmatched: number;
  /** Consistent pairs (the same system both times, or tie both times) / pairs. */
  readonly positionConsistency: number | null;
  /** Share of the non-tie answers (each order one) that chose `first`: 0.5 is unbiased. */
  readonly firstSlotRate: number | null;
  /** Every answer, each order one: `first`, `second` and `tie`. */
  readonly answers: { readonly first: number; readonly second: number; readonly tie: number };
  /** One entry a pair of systems, in order of the systems' names. */
  readonly byPair: readonly PairTally[];
  /** With more than two systems: Bradley-Terry ratings, best first (the ranking); else `null`. */
  readonly ratings: readonly SystemRating[] | null;
  /** The ratings needed one virtual tie per pair to be finite (see `bradleyTerry`). */
  readonly ratingsRegularized: boolean;
  readonly resamples: number;
  readonly seed: number;
}

/** How the bootstrap intervals are drawn. */
export interface PairwiseSummaryOptions {
  readonly seed: number;
  /** Default `DEFAULT_BOOTSTRAP_RESAMPLES` (2000). */
  readonly resamples?: number;
}

/**
 * The pairwise summary, folded one result at a time. The two orders of a pair
 * are matched (in any arrival order) and mapped back to systems: the same
 * system both times is its win, a tie both times a tie, anything else is
 * inconsistent and counts as a tie (FastChat's MT-Bench rule). Memory: the
 * first order of a pair until its twin comes, and three numbers per answered
 * pair (case, pair, outcome) for the bootstrap; never a text. Intervals are a
 * seeded case bootstrap (Efron & Tibshirani 1993); ratings are Bradley-Terry
 * (Hunter 2004) on the Elo scale.
 *
 * @example
 * ```ts
 * const fold = pairwiseAccumulator({ seed: 0 });
 * for (const result of results) fold.add(result);
 * fold.summary().byPair[0];
 * // { systems: ['a', 'b'], judged: 4, wins: 2, losses: 1, ties: 0, inconsistent: 1, errors: 0,
 * //   winRate: 0.625, winRateCi: [0.25, 1] }
 * ```
 */
export function pairwiseAccumulator(options: PairwiseSummaryOptions): {
  add(result: JudgeResult): void;
  summary(): PairwiseSummary;
} {
  const resamples = options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES;
  const systems = new Map<string, number>();
  const pairIndex = new Map<string, number>();
  const pairSystems: (readonly [string, string])[] = [];
  // the first order of a pair, until its twin: who came first (system name) and its outcome
  const waiting = new Map<string, { first: string; outcome: number }>();
  // cases with a pair still to come: their bootstrap ordinal and the pairs left
  const openCases = new Map<string, { ordinal: number; left: number }>();
  const records = new PairRecords();
  let caseCount = 0;
  let errorPairs = 0;
  const errorsByPair = new Map<number, number>();
  const answers = { first: 0, second: 0, tie: 0 };

  const indexOfPair = (a: string, b: string): number => {
    const key = pairKeyOf(a, b);
    let index = pairIndex.get(key);
    if (index === undefined) {
      index = pairSystems.length;
      pairIndex.set(key, index);
      pairSystems.push([a, b]);
      for (const system of [a, b]) if (!systems.has(system)) systems.set(system, systems.size);
    }
    return index;
  };

  return {
    add(result) {
      const pair = result.pair;
      if (pair === undefined) return;
      const [a, b] = pair.systems;
      const outcome = orderOutcome(result, a);
      if (pair.winner !== null && result.status !== 'error') answers[pair.winner]++;
      const caseKey = pairKeyOf(result.evaluationRunId, result.caseId);
      const key = `${caseKey}${pairKeyOf(a, b)}`;
      const twin = waiting.get(key);
      if (twin === undefined) {
        waiting.set(key, { first: pair.first, outcome });
        if (!openCases.has(caseKey)) {
          openCases.set(caseKey, {
            ordinal: -1,
            left: (pair.candidates * (pair.candidates - 1)) / 2,
          });
        }
        return;
      }
      // the same order again (a redelivery): its twin is still to come
      if (twin.first === pair.first) return;
      waiting.delete(key);
      const open = openCases.get(caseKey);
      const joined = joinOrders(twin.outcome, outcome);
      if (joined === ERROR) {
        errorPairs++;
        const index = indexOfPair(a, b);
        errorsByPair.set(index, (errorsByPair.get(index) ?? 0) + 1);
      } else {
        let ordinal = open?.ordinal ?? -1;
        if (ordinal < 0) {
          ordinal = caseCount++;
          if (open) open.ordinal = ordinal;
        }
        records.push(ordinal, indexOfPair(a, b), joined);
      }
      if (open && --open.left <= 0) openCases.delete(caseKey);
    },
    summary() {
      return summarize(records, pairSystems, systems, {
        caseCount,
        errorPairs,
        unmatched: waiting.size,
        answers: { ...answers },
        errorsByPair,
        seed: options.seed,
        resamples,
      });
    },
  };
}

/** Answered pairs as three parallel typed arrays that grow by doubling. */
class PairRecords {
  length = 0;
  cases = new Uint32Array(1024);
  pairs = new Uint32Array(1024);
  outcomes = new Uint8Array(1024);

  push(caseOrdinal: number, pair: number, outcome: number): void {
    if (this.length === this.cases.length) {
      this.cases = grown(this.cases, new Uint32Array(this.length * 2));
      this.pairs = grown(this.pairs, new Uint32Array(this.length * 2));
      this.outcomes = grown(this.outcomes, new Uint8Array(this.length * 2));
    }
    this.cases[this.length] = caseOrdinal;
    this.pairs[this.length] = pair;
    this.outcomes[this.length] = outcome;
    this.length++;
  }
}

function grown<T extends Uint32Array | Uint8Array>(from: T, into: T): T {
  into.set(from);
  return into;
}

/** The score of an outcome for the pair's first system: 1, 0 or a half. */
function scoreOf(outcome: number): number {
  if (outcome === WIN) return 1;
  if (outcome === LOSS) return 0;
  return 0.5;
}

function summarize(
  records: PairRecords,
  pairSystems: readonly (readonly [string, string])[],
  systems: ReadonlyMap<string, number>,
  folded: {
    readonly caseCount: number;
    readonly errorPairs: number;
    readonly unmatched: number;
    readonly answers: { first: number; second: number; tie: number };
    readonly errorsByPair: ReadonlyMap<number, number>;
    readonly seed: number;
    readonly resamples: number;
  },
): PairwiseSummary {
  const { seed, resamples } = folded;
  const counts = pairSystems.map(() => [0, 0, 0, 0]);
  for (let i = 0; i < records.length; i++) counts[records.pairs[i]!]![records.outcomes[i]!]!++;
  const byPair = pairSystems.map((names, index): PairTally => {
    const [wins, losses, ties, inconsistent] = counts[index] as [number, number, number, number];
    const judged = wins + losses + ties + inconsistent;
    return {
      systems: [names[0], names[1]],
      judged,
      wins,
      losses,
      ties,
      inconsistent,
      errors: folded.errorsByPair.get(index) ?? 0,
      winRate: judged === 0 ? null : (wins + 0.5 * (ties + inconsistent)) / judged,
      winRateCi: judged === 0 ? null : winRateInterval(records, index, judged, seed, resamples),
    };
  });
  const order = byPair
    .map((tally, index) => ({ tally, index }))
    .sort((x, y) => compareNames(x.tally.systems, y.tally.systems));
  const pairs = records.length;
  const consistent = pairs - byPair.reduce((sum, tally) => sum + tally.inconsistent, 0);
  const { first, second } = folded.answers;
  const fit =
    systems.size > 2
      ? systemRatings(records, pairSystems, systems, folded.caseCount, seed, resamples)
      : null;
  return {
    cases: folded.caseCount,
    pairs,
    errorPairs: folded.errorPairs,
    unmatched: folded.unmatched,
    positionConsistency: pairs === 0 ? null : consistent / pairs,
    firstSlotRate: first + second === 0 ? null : first / (first + second),
    answers: folded.answers,
    byPair: order.map(({ tally }) => tally),
    ratings: fit?.ratings ?? null,
    ratingsRegularized: fit?.regularized ?? false,
    resamples,
    seed,
  };
}

function compareNames(x: readonly [string, string], y: readonly [string, string]): number {
  if (x[0] !== y[0]) return x[0] < y[0] ? -1 : 1;
  if (x[1] !== y[1]) return x[1] < y[1] ? -1 : 1;
  return 0;
}

/** The win rate's interval: the pair's cases resampled (each case holds the pair once). */
function winRateInterval(
  records: PairRecords,
  pair: number,
  judged: number,
  seed: number,
  resamples: number,
): readonly [number, number] | null {
  const scores = new Float64Array(judged);
  let filled = 0;
  for (let i = 0; i < records.length; i++) {
    if (records.pairs[i] === pair) scores[filled++] = scoreOf(records.outcomes[i]!);
  }
  const interval = bootstrapInterval(
    judged,
    (indices) => {
      let sum = 0;
      for (const index of indices) sum += scores[index]!;
      return sum / indices.length;
    },
    { seed, resamples },
  );
  return interval.lo === null || interval.hi === null ? null : [interval.lo, interval.hi];
}

/** Bradley-Terry ratings of every system, best first, each with a case-bootstrap interval. */
function systemRatings(
  records: PairRecords,
  pairSystems: readonly (readonly [string, string])[],
  systems: ReadonlyMap<string, number>,
  caseCount: number,
  seed: number,
  resamples: number,
): { ratings: SystemRating[]; regularized: boolean } {
  const size = systems.size;
  const count = records.length;
  // each record as the two systems' indices and the first one's score
  const winner = new Uint16Array(count);
  const loser = new Uint16Array(count);
  const score = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const [a, b] = pairSystems[records.pairs[i]!]!;
    winner[i] = systems.get(a)!;
    loser[i] = systems.get(b)!;
    score[i] = scoreOf(records.outcomes[i]!);
  }
  const flat = new Float64Array(size * size);
  // wins[i][j] of the records, each weighed by `weight` (how often its case was drawn)
  const winsOf = (weight: Uint32Array | null): number[][] => {
    flat.fill(0);
    for (let i = 0; i < count; i++) {
      const times = weight === null ? 1 : weight[records.cases[i]!]!;
      if (times === 0) continue;
      flat[winner[i]! * size + loser[i]!]! += times * score[i]!;
      flat[loser[i]! * size + winner[i]!]! += times * (1 - score[i]!);
    }
    return Array.from({ length: size }, (_, row) =>
      Array.from(flat.subarray(row * size, row * size + size)),
    );
  };
  const point = bradleyTerry(winsOf(null));
  // a resample of whole cases weighs each record by how often its case was drawn
  const drawn = new Uint32Array(caseCount);
  const resampled = Array.from({ length: size }, () => new Float64Array(resamples));
  let filled = 0;
  if (caseCount > 0) {
    bootstrapInterval(
      caseCount,
      (indices) => {
        drawn.fill(0);
        for (const index of indices) drawn[index]!++;
        const ratings = bradleyTerry(winsOf(drawn)).ratings;
        ratings.forEach((rating, system) => {
          resampled[system]![filled] = rating;
        });
        filled++;
        return ratings[0]!;
      },
      { seed, resamples },
    );
  }
  const names = [...systems.keys()];
  const ratings = names.map((system, index): SystemRating => {
    const sorted = resampled[index]!.subarray(0, filled).sort();
    return {
      system,
      rating: point.ratings[index]!,
      ratingCi:
        filled === 0 ? null : [percentileOfSorted(sorted, 2.5), percentileOfSorted(sorted, 97.5)],
    };
  });
  ratings.sort((x, y) => y.rating - x.rating || (x.system < y.system ? -1 : 1));
  return { ratings, regularized: point.regularized };
}
