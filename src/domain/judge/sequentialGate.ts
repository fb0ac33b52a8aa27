import {
  type BettingConfidenceSequenceState,
  bettingConfidenceSequence,
  confidenceInterval,
  foldConfidenceSequence,
} from '../stats/bettingConfidenceSequence.js';
import {
  type BettingGateState,
  bettingGate,
  foldBettingGate,
  gateWealth,
} from '../stats/bettingGate.js';
import type { JudgeResult } from './result.js';

/** One gate decided sequentially: `min_pass_rate`, or `min_mean_score` over a declared score range. */
export type SequentialGateSpec =
  | { readonly gate: 'min_pass_rate'; readonly threshold: number }
  | {
      readonly gate: 'min_mean_score';
      readonly threshold: number;
      readonly scoreRange: readonly [number, number];
    };

/** The level of the printed confidence sequence: 95%. */
export const CONFIDENCE_ALPHA = 0.05;

/** One gate's betting test and the confidence sequence printed beside it. */
export interface SequentialGateTrack {
  readonly spec: SequentialGateSpec;
  readonly test: BettingGateState;
  readonly sequence: BettingConfidenceSequenceState;
}

/**
 * The sequential gates of an evaluation run, folded in draw order: plain JSON,
 * persisted with the run. Judging stops once a gate fails or every gate passes.
 */
export interface SequentialGateState {
  /** The draw order's seed. */
  readonly seed: number;
  readonly alpha: number;
  /** The cases of the file. */
  readonly total: number;
  /** Results folded so far: the draw index of the next one. */
  readonly folded: number;
  readonly tracks: readonly SequentialGateTrack[];
  readonly decision: 'pass' | 'fail' | null;
  /** The 1-based position in draw order of the case whose result decided. */
  readonly decidedAt: number | null;
}

/**
 * Fresh sequential gates over a file of `total` cases drawn with `seed`.
 *
 * @example
 * ```ts
 * sequentialGates([{ gate: 'min_pass_rate', threshold: 0.8 }], { alpha: 0.05, total: 10000, seed: 7 }).decision; // null
 * ```
 */
export function sequentialGates(
  specs: readonly SequentialGateSpec[],
  run: { readonly alpha: number; readonly total: number; readonly seed: number },
): SequentialGateState {
  return {
    seed: run.seed,
    alpha: run.alpha,
    total: run.total,
    folded: 0,
    tracks: specs.map((spec) => ({
      spec,
      test: bettingGate({ threshold: unitThreshold(spec), alpha: run.alpha, total: run.total }),
      sequence: bettingConfidenceSequence({ alpha: CONFIDENCE_ALPHA, total: run.total }),
    })),
    decision: null,
    decidedAt: null,
  };
}

/**
 * The gate's threshold on [0, 1]: the pass rate's as it is, a mean score's mapped from its range.
 *
 * @example
 * ```ts
 * unitThreshold({ gate: 'min_mean_score', threshold: 7, scoreRange: [0, 10] }); // 0.7
 * ```
 */
export function unitThreshold(spec: SequentialGateSpec): number {
  if (spec.gate === 'min_pass_rate') return spec.threshold;
  const [lo, hi] = spec.scoreRange;
  return (spec.threshold - lo) / (hi - lo);
}

/**
 * What a result weighs for a gate, on [0, 1]. For `min_pass_rate`: 1 when it
 * passed, else 0: a skipped case and an erring judgement count as failed (the
 * conservative side). For `min_mean_score`: the score mapped from its range;
 * no score, or one outside the declared range, counts as the range's bottom.
 *
 * @example
 * ```ts
 * gateValue({ gate: 'min_pass_rate', threshold: 0.8 }, { status: 'error', score: null }); // 0
 * gateValue({ gate: 'min_mean_score', threshold: 5, scoreRange: [0, 10] }, { status: 'passed', score: 8 }); // 0.8
 * ```
 */
export function gateValue(
  spec: SequentialGateSpec,
  result: Pick<JudgeResult, 'status' | 'score'>,
): number {
  if (spec.gate === 'min_pass_rate') return result.status === 'passed' ? 1 : 0;
  if (result.status === 'error' || result.status === 'skipped' || result.score === null) return 0;
  const [lo, hi] = spec.scoreRange;
  if (!(result.score >= lo && result.score <= hi)) return 0;
  return (result.score - lo) / (hi - lo);
}

/**
 * Fold the next result in draw order. A decided state is returned unchanged.
 *
 * @example
 * ```ts
 * let state = sequentialGates([{ gate: 'min_pass_rate', threshold: 0.8 }], { alpha: 0.05, total: 10000, seed: 7 });
 * while (state.decision === null) state = foldSequentialGates(state, { status: 'passed', score: 1 });
 * [state.decision, state.decidedAt]; // ['pass', 28]
 * ```
 */
export function foldSequentialGates(
  state: SequentialGateState,
  result: Pick<JudgeResult, 'status' | 'score'>,
): SequentialGateState {
  if (state.decision !== null) return state;
  const tracks: SequentialGateTrack[] = [];
  let failed = false;
  let passed = true;
  for (const track of state.tracks) {
    const value = gateValue(track.spec, result);
    const test = foldBettingGate(track.test, value);
    tracks.push({
      spec: track.spec,
      test,
      sequence: foldConfidenceSequence(track.sequence, value),
    });
    if (test.decision === 'fail') failed = true;
    if (test.decision !== 'pass') passed = false;
  }
  const folded = state.folded + 1;
  const decision = failed ? 'fail' : passed ? 'pass' : null;
  return {
    seed: state.seed,
    alpha: state.alpha,
    total: state.total,
    folded,
    tracks,
    decision,
    decidedAt: decision === null ? null : folded,
  };
}

/** What `arena judge --json` reports of one gate. */
export interface SequentialGateReport {
  readonly gate: SequentialGateSpec['gate'];
  readonly threshold: number;
  readonly decision: 'pass' | 'fail' | null;
  readonly decidedBy: 'wealth' | 'exact' | null;
  readonly decidedAt: number | null;
  readonly wealth: number;
  /** The mean of the folded results on the gate's scale (pass rate, or mean score). */
  readonly observed: number | null;
  readonly confidenceSequence: readonly [number, number];
}

/**
 * Each gate's decision, wealth, observed value and 95% confidence sequence, on the gate's own scale.
 *
 * @example
 * ```ts
 * sequentialGateReports(state)[0];
 * // { gate: 'min_pass_rate', threshold: 0.8, decision: 'pass', decidedBy: 'wealth', decidedAt: 28, wealth: 20.215421391523744, observed: 1, confidenceSequence: [0.76, 1] }
 * ```
 */
export function sequentialGateReports(state: SequentialGateState): SequentialGateReport[] {
  return state.tracks.map(({ spec, test, sequence }) => {
    const scale = (unit: number): number => {
      if (spec.gate === 'min_pass_rate') return unit;
      const [lo, hi] = spec.scoreRange;
      return lo + unit * (hi - lo);
    };
    const { lower, upper } = confidenceInterval(sequence);
    return {
      gate: spec.gate,
      threshold: spec.threshold,
      decision: test.decision,
      decidedBy: test.decidedBy,
      decidedAt: test.decidedAt,
      wealth: gateWealth(test),
      observed: sequence.folded === 0 ? null : scale(sequence.sum / sequence.folded),
      confidenceSequence: [scale(lower), scale(upper)],
    };
  });
}

/**
 * Why a fold state read back (from a store, to resume) is not one of these
 * gates, or `null` when it is: the same seed, alpha, cases and gate specs,
 * and a fold no further than the file.
 *
 * @example
 * ```ts
 * const fresh = sequentialGates([{ gate: 'min_pass_rate', threshold: 0.8 }], { alpha: 0.05, total: 10, seed: 7 });
 * sequentialGateMismatch({ ...fresh, alpha: 0.1 }, fresh); // 'alpha 0.1, not 0.05'
 * ```
 */
export function sequentialGateMismatch(
  stored: SequentialGateState,
  fresh: SequentialGateState,
): string | null {
  if (stored.seed !== fresh.seed) return `seed ${stored.seed}, not ${fresh.seed}`;
  if (stored.alpha !== fresh.alpha) return `alpha ${stored.alpha}, not ${fresh.alpha}`;
  if (stored.total !== fresh.total) return `${stored.total} cases, not ${fresh.total}`;
  const specs = (state: SequentialGateState) =>
    JSON.stringify(state.tracks?.map((track) => track.spec) ?? null);
  if (specs(stored) !== specs(fresh)) return `gates ${specs(stored)}, not ${specs(fresh)}`;
  if (!Number.isSafeInteger(stored.folded) || stored.folded < 0 || stored.folded > stored.total) {
    return `${stored.folded} results folded of ${stored.total}`;
  }
  return null;
}
