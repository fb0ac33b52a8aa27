import { predictableBets, runningEstimates } from './bettingGate.js';
import { StatisticsInputError } from './errors.js';

/**
 * A confidence sequence for the mean of a finite population of results in
 * [0, 1] sampled without replacement: the hedged betting CS of Waudby-Smith &
 * Ramdas, "Estimating means of bounded random variables by betting", JRSS-B
 * 2024 (Sections 4 and 6), on a grid of candidate means `m = k / grid`.
 *
 * Each candidate keeps the two wealths of `bettingGate` (aGRAPA bets against
 * the null mean of the remaining items, `(N m - S) / (N - t + 1)`); it leaves
 * the sequence once the hedged wealth `max(K+, K-) / 2` reaches `1 / alpha`,
 * or once the results seen make it impossible (`S > N m`, or
 * `S + (N - t) < N m`), for good: the running intersection, itself a
 * confidence sequence, so only the candidates still in are folded (a few
 * dozen after a hundred results). The printed interval is widened to the next
 * grid point outward (the set is an interval between grid points), and
 * clipped to what the results seen still allow, so it covers the mean with
 * probability at least `1 - alpha` at every step at once.
 *
 * @example
 * ```ts
 * let sequence = bettingConfidenceSequence({ alpha: 0.05, total: 1000 });
 * for (let i = 0; i < 200; i++) sequence = foldConfidenceSequence(sequence, i % 10 === 0 ? 0 : 1);
 * confidenceInterval(sequence); // { lower: 0.82, upper: 0.95 }
 * ```
 */
export interface BettingConfidenceSequenceState {
  readonly alpha: number;
  readonly total: number;
  /** Candidate means are `k / grid`, k = 0..grid. */
  readonly grid: number;
  readonly folded: number;
  readonly sum: number;
  readonly squares: number;
  /** The first candidate (`k`) still in the sequence; above `highest` when none is. */
  readonly lowest: number;
  /** The last candidate still in the sequence. */
  readonly highest: number;
  /** Log of the wealth betting on results above each candidate still in, `lowest` first. */
  readonly logWealthUp: readonly number[];
  /** Log of the wealth betting on results below each candidate still in, `lowest` first. */
  readonly logWealthDown: readonly number[];
}

/** The default grid: candidate means a hundredth apart, as the interval is printed. */
export const CONFIDENCE_GRID = 100;

/**
 * A fresh confidence sequence over a population of `total` results.
 *
 * @throws StatisticsInputError for an alpha outside (0, 1), a total or grid that is not a positive integer.
 * @example
 * ```ts
 * confidenceInterval(bettingConfidenceSequence({ alpha: 0.05, total: 10 })); // { lower: 0, upper: 1 }
 * ```
 */
export function bettingConfidenceSequence(parameters: {
  readonly alpha: number;
  readonly total: number;
  readonly grid?: number;
}): BettingConfidenceSequenceState {
  const { alpha, total, grid = CONFIDENCE_GRID } = parameters;
  if (!(alpha > 0 && alpha < 1)) {
    throw new StatisticsInputError(`alpha must be in (0, 1), got ${alpha}`);
  }
  if (!Number.isSafeInteger(total) || total < 1) {
    throw new StatisticsInputError(`total must be a positive integer, got ${total}`);
  }
  if (!Number.isSafeInteger(grid) || grid < 1) {
    throw new StatisticsInputError(`grid must be a positive integer, got ${grid}`);
  }
  const zeros = new Array<number>(grid + 1).fill(0);
  return {
    alpha,
    total,
    grid,
    folded: 0,
    sum: 0,
    squares: 0,
    lowest: 0,
    highest: grid,
    logWealthUp: zeros,
    logWealthDown: [...zeros],
  };
}

/**
 * Fold the next result (in draw order) into every candidate's wealth.
 *
 * @throws StatisticsInputError for a result outside [0, 1] or a fold past the population's end.
 * @example
 * ```ts
 * foldConfidenceSequence(bettingConfidenceSequence({ alpha: 0.05, total: 4 }), 1).folded; // 1
 * ```
 */
export function foldConfidenceSequence(
  state: BettingConfidenceSequenceState,
  result: number,
): BettingConfidenceSequenceState {
  if (!(result >= 0 && result <= 1)) {
    throw new StatisticsInputError(`a result must be in [0, 1], got ${result}`);
  }
  if (state.folded >= state.total) {
    throw new StatisticsInputError(`the population has ${state.total} results: all were folded`);
  }
  const { total, grid, folded, sum, lowest } = state;
  const { mean, variance } = runningEstimates(folded, sum, state.squares);
  const remaining = total - folded;
  const after = folded + 1;
  const sumAfter = sum + result;
  const bar = Math.log(2 / state.alpha);
  const up: number[] = [];
  const down: number[] = [];
  let first = -1;
  let last = -1;
  for (let k = lowest; k <= state.highest; k++) {
    const nullMean = ((total * k) / grid - sum) / remaining;
    const at = k - lowest;
    let wealthUp = state.logWealthUp[at]!;
    let wealthDown = state.logWealthDown[at]!;
    if (nullMean >= 0 && nullMean <= 1) {
      const bets = predictableBets(mean, variance, nullMean);
      wealthUp += Math.log1p(bets.up * (result - nullMean));
      wealthDown += Math.log1p(-bets.down * (result - nullMean));
    }
    const candidate = (total * k) / grid;
    // out for good: the wealth reached 2/alpha, or the results seen rule the candidate out
    const out =
      Math.max(wealthUp, wealthDown) >= bar ||
      candidate < sumAfter ||
      candidate > sumAfter + (total - after);
    if (out && first < 0) continue;
    if (first < 0) first = k;
    if (!out) last = k;
    up.push(wealthUp);
    down.push(wealthDown);
  }
  const kept = first < 0 ? 0 : last - first + 1;
  up.length = kept;
  down.length = kept;
  return {
    alpha: state.alpha,
    total,
    grid,
    folded: after,
    sum: sumAfter,
    squares: state.squares + (result - (0.5 + sumAfter) / (after + 1)) ** 2,
    lowest: first < 0 ? state.highest + 1 : first,
    highest: first < 0 ? state.highest : last,
    logWealthUp: up,
    logWealthDown: down,
  };
}

/**
 * The interval of the sequence now: the candidates still in it, widened to the
 * next grid point outward and clipped to the means the results seen allow.
 *
 * @example
 * ```ts
 * confidenceInterval(bettingConfidenceSequence({ alpha: 0.05, total: 10 })); // { lower: 0, upper: 1 }
 * ```
 */
export function confidenceInterval(state: BettingConfidenceSequenceState): {
  lower: number;
  upper: number;
} {
  const { total, grid, folded, sum, lowest, highest } = state;
  const possibleLower = sum / total;
  const possibleUpper = (sum + total - folded) / total;
  // none left (a miss, probability at most alpha): what the results seen allow
  if (lowest > highest) return { lower: possibleLower, upper: possibleUpper };
  return {
    lower: Math.max(possibleLower, (lowest - 1) / grid),
    upper: Math.min(possibleUpper, (highest + 1) / grid),
  };
}
