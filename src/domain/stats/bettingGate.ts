import { StatisticsInputError } from './errors.js';

/**
 * A sequential test of "mean >= threshold" over a finite population of
 * results in [0, 1], sampled without replacement: Waudby-Smith & Ramdas,
 * "Estimating means of bounded random variables by betting", JRSS-B 2024
 * (Section 6, sampling without replacement; aGRAPA bets of Section 5).
 *
 * Two wealth processes start at 1. Before the t-th result, the null mean of
 * the items not yet seen is `m_t = (N p0 - S_{t-1}) / (N - t + 1)` (what the
 * remaining items must average if the population's mean is exactly `p0`).
 * With a bet `lambda_t` computed from earlier results only,
 * - the PASS wealth multiplies `1 + lambda+_t (x_t - m_t)` (it grows when
 *   results run above the null: evidence for mean >= p0),
 * - the FAIL wealth multiplies `1 - lambda-_t (x_t - m_t)` (evidence for < p0).
 * Under its null each is a nonnegative supermartingale, so by Ville's
 * inequality it reaches `1 / alpha` with probability at most `alpha`, at
 * whatever time the test is stopped: a PASS when the mean is below `p0`, or a
 * FAIL when it is at or above, happens with probability at most `alpha`.
 * Once the results seen settle the population's mean exactly (`S >= N p0`, or
 * `S + (N - t) < N p0`), the test decides exactly, without error; after all
 * `N` results it always has.
 *
 * The state is plain JSON (persist it with the run and fold on after a resume:
 * the same results give the same decision at the same index).
 *
 * @example
 * ```ts
 * let gate = bettingGate({ threshold: 0.8, alpha: 0.05, total: 10000 });
 * for (let i = 0; i < 40; i++) gate = foldBettingGate(gate, 1);
 * [gate.decision, gate.decidedAt, Number(Math.exp(gate.logWealthPass).toFixed(1))];
 * // ['pass', 28, 20.2]
 * ```
 */
export interface BettingGateState {
  /** The null mean `p0` the population is tested against, in (0, 1). */
  readonly threshold: number;
  readonly alpha: number;
  /** The population's size `N`: the cases of the file. */
  readonly total: number;
  /** Results folded so far: the index (0-based, in draw order) of the next one. */
  readonly folded: number;
  /** The sum of the results folded. */
  readonly sum: number;
  /** `sum_i (x_i - mu_hat_i)^2`, the running square deviations the bets' variance estimate uses. */
  readonly squares: number;
  /** Natural log of the wealth betting on mean >= threshold. */
  readonly logWealthPass: number;
  /** Natural log of the wealth betting on mean < threshold. */
  readonly logWealthFail: number;
  /** `null` while undecided. */
  readonly decision: 'pass' | 'fail' | null;
  /** How it was decided: a wealth reached `1 / alpha`, or the results seen settled the mean exactly. */
  readonly decidedBy: 'wealth' | 'exact' | null;
  /** The number of results folded when it decided (the draw index of the deciding result, plus one). */
  readonly decidedAt: number | null;
}

/** The share of the wealth at most put at risk on one result: the paper's truncation `c = 1/2`. */
export const BET_SCALE = 0.5;

/** The parameters of a gate: the threshold `p0`, `alpha`, and the population's size `N`. */
export interface BettingGateParameters {
  readonly threshold: number;
  readonly alpha: number;
  readonly total: number;
}

/**
 * A fresh gate (both wealths 1, nothing folded).
 *
 * @throws StatisticsInputError when `threshold` or `alpha` is not in (0, 1) or `total` is not a positive integer.
 * @example
 * ```ts
 * bettingGate({ threshold: 0.8, alpha: 0.05, total: 4 }).logWealthPass; // 0
 * ```
 */
export function bettingGate(parameters: BettingGateParameters): BettingGateState {
  const { threshold, alpha, total } = parameters;
  if (!(threshold > 0 && threshold < 1)) {
    throw new StatisticsInputError(`threshold must be in (0, 1), got ${threshold}`);
  }
  if (!(alpha > 0 && alpha < 1)) {
    throw new StatisticsInputError(`alpha must be in (0, 1), got ${alpha}`);
  }
  if (!Number.isSafeInteger(total) || total < 1) {
    throw new StatisticsInputError(`total must be a positive integer, got ${total}`);
  }
  return {
    threshold,
    alpha,
    total,
    folded: 0,
    sum: 0,
    squares: 0,
    logWealthPass: 0,
    logWealthFail: 0,
    decision: null,
    decidedBy: null,
    decidedAt: null,
  };
}

/**
 * The running estimates a bet uses, from the `folded` results before it
 * (regularised as in the paper: `mu_hat = (1/2 + S) / (t + 1)`,
 * `sigma2_hat = (1/4 + sum (x_i - mu_hat_i)^2) / (t + 1)`).
 *
 * @example
 * ```ts
 * runningEstimates(0, 0, 0); // { mean: 0.5, variance: 0.25 }
 * ```
 */
export function runningEstimates(
  folded: number,
  sum: number,
  squares: number,
): { mean: number; variance: number } {
  return { mean: (0.5 + sum) / (folded + 1), variance: (0.25 + squares) / (folded + 1) };
}

/**
 * The aGRAPA bets against the null mean `nullMean` of the remaining items:
 * `raw = (mu_hat - m) / (sigma2_hat + (mu_hat - m)^2)`, then `up = raw`
 * clipped to [0, c/m] and `down = -raw` clipped to [0, c/(1 - m)].
 *
 * @example
 * ```ts
 * predictableBets(0.9, 0.05, 0.8); // { up: 0.625, down: 0 } (raw 1.67 clipped to c/m)
 * ```
 */
export function predictableBets(
  mean: number,
  variance: number,
  nullMean: number,
): { up: number; down: number } {
  const gap = mean - nullMean;
  const raw = gap / (variance + gap * gap);
  const upLimit = nullMean > 0 ? BET_SCALE / nullMean : Number.POSITIVE_INFINITY;
  const downLimit = nullMean < 1 ? BET_SCALE / (1 - nullMean) : Number.POSITIVE_INFINITY;
  return { up: Math.min(Math.max(raw, 0), upLimit), down: Math.min(Math.max(-raw, 0), downLimit) };
}

/**
 * Fold the next result (in draw order) into the gate. A decided gate is
 * returned unchanged: what comes after the decision does not move it.
 *
 * @throws StatisticsInputError for a result outside [0, 1] or a fold past the population's end.
 * @example
 * ```ts
 * foldBettingGate(bettingGate({ threshold: 0.8, alpha: 0.05, total: 4 }), 1).sum; // 1
 * ```
 */
export function foldBettingGate(state: BettingGateState, result: number): BettingGateState {
  if (state.decision !== null) return state;
  if (!(result >= 0 && result <= 1)) {
    throw new StatisticsInputError(`a result must be in [0, 1], got ${result}`);
  }
  if (state.folded >= state.total) {
    throw new StatisticsInputError(`the population has ${state.total} results: all were folded`);
  }
  const { total, threshold } = state;
  const nullMean = (total * threshold - state.sum) / (total - state.folded);
  const { mean, variance } = runningEstimates(state.folded, state.sum, state.squares);
  const bets = predictableBets(mean, variance, nullMean);
  const folded = state.folded + 1;
  const sum = state.sum + result;
  const estimateAfter = (0.5 + sum) / (folded + 1);
  const logWealthPass = state.logWealthPass + Math.log1p(bets.up * (result - nullMean));
  const logWealthFail = state.logWealthFail + Math.log1p(-bets.down * (result - nullMean));
  const { decision, decidedBy } = decisionOf(state, folded, sum, logWealthPass, logWealthFail);
  return {
    threshold,
    alpha: state.alpha,
    total,
    folded,
    sum,
    squares: state.squares + (result - estimateAfter) ** 2,
    logWealthPass,
    logWealthFail,
    decision,
    decidedBy,
    decidedAt: decision === null ? null : folded,
  };
}

/** Relative slack on `N p0` so that a threshold such as 0.7 * 10 (6.999…) is not missed by rounding. */
const EXACT_SLACK = 1e-9;

function decisionOf(
  state: BettingGateState,
  folded: number,
  sum: number,
  logWealthPass: number,
  logWealthFail: number,
): Pick<BettingGateState, 'decision' | 'decidedBy'> {
  const needed = state.total * state.threshold;
  const slack = EXACT_SLACK * state.total;
  if (sum >= needed - slack) return { decision: 'pass', decidedBy: 'exact' };
  if (sum + (state.total - folded) < needed - slack)
    return { decision: 'fail', decidedBy: 'exact' };
  const bar = -Math.log(state.alpha);
  if (logWealthPass >= bar) return { decision: 'pass', decidedBy: 'wealth' };
  if (logWealthFail >= bar) return { decision: 'fail', decidedBy: 'wealth' };
  return UNDECIDED;
}

const UNDECIDED = { decision: null, decidedBy: null } as const;

/**
 * The wealth that decided (or, undecided, the larger of the two), as a plain number.
 *
 * @example
 * ```ts
 * gateWealth(bettingGate({ threshold: 0.8, alpha: 0.05, total: 4 })); // 1
 * ```
 */
export function gateWealth(state: BettingGateState): number {
  if (state.decision === 'pass') return Math.exp(state.logWealthPass);
  if (state.decision === 'fail') return Math.exp(state.logWealthFail);
  return Math.exp(Math.max(state.logWealthPass, state.logWealthFail));
}
