import { passAtK } from '../stats/passAtK.js';
import { JudgeConfigurationError } from './errors.js';
import type { JudgeStatus } from './result.js';
import type { TrialJudgeResult } from './trials.js';

/**
 * How a case's trials become one value (as Inspect's epoch reducers):
 * - `mode`: the most frequent status (a tie is `failed`) and the most frequent score (a tie is the lowest);
 * - `mean`, `median`, `max`, `min`: of the scores, and of the passes (1) and failures (0; an error fails);
 * - `pass_at_K`: the unbiased pass@K of the trials (Chen et al. 2021), K <= trials;
 * - `at_least_K`: passed (1) when at least K trials passed, else failed (0).
 * A skipped trial is left out, except by `pass_at_K` and `at_least_K`, where it did not pass.
 */
export type TrialReducer =
  | { readonly kind: 'mode' | 'mean' | 'median' | 'max' | 'min'; readonly name: string }
  | { readonly kind: 'pass_at' | 'at_least'; readonly k: number; readonly name: string };

/** The reducer names `parseTrialReducer` reads, as a person types them. */
export const TRIAL_REDUCER_NAMES = 'mode, mean, median, max, min, pass_at_K or at_least_K';

/** One case's trials, reduced: what `arena judge --trials N --reduce R` writes to `--out` per case. */
export interface ReducedCase {
  readonly kind: 'reduced';
  readonly evaluationRunId: string;
  readonly caseId: string;
  readonly subjectId: string;
  /** The reducer's name, e.g. `pass_at_2`. */
  readonly reducer: string;
  /** The trials reduced. */
  readonly trials: number;
  /** How many of them passed. */
  readonly passed: number;
  /** The case's pass value in [0, 1] (1 passed, 0 failed, a share or a probability between); `null` when no trial counts. */
  readonly passValue: number | null;
  /** The reduced score; `null` when no trial has one. */
  readonly score: number | null;
}

/**
 * Read a reducer name for `trials` trials.
 *
 * @throws JudgeConfigurationError for an unknown name, or a K that is not an integer from 1 to `trials`.
 * @example
 * ```ts
 * parseTrialReducer('pass_at_2', 3); // { kind: 'pass_at', k: 2, name: 'pass_at_2' }
 * parseTrialReducer('pass_at_5', 3); // throws: pass_at_5 needs K <= the trials (3), got 5
 * ```
 */
export function parseTrialReducer(name: string, trials: number): TrialReducer {
  if (name === 'mode' || name === 'mean' || name === 'median' || name === 'max' || name === 'min') {
    return { kind: name, name };
  }
  const counted = /^(pass_at|at_least)_(\d+)$/.exec(name);
  if (counted === null) {
    throw new JudgeConfigurationError(
      `unknown reducer '${name}': expected ${TRIAL_REDUCER_NAMES} (K a number of trials)`,
    );
  }
  const k = Number(counted[2]);
  if (!Number.isSafeInteger(k) || k < 1 || k > trials) {
    throw new JudgeConfigurationError(
      `${name} needs K from 1 to the trials (${trials}), got ${counted[2]}`,
    );
  }
  return { kind: counted[1] as 'pass_at' | 'at_least', k, name };
}

/**
 * Reduce one case's trials (all of one run, case and subject id).
 *
 * @example
 * ```ts
 * reduceTrials({ kind: 'mode', name: 'mode' }, [passedTrial1, failedTrial2]);
 * // { kind: 'reduced', ..., reducer: 'mode', trials: 2, passed: 1, passValue: 0, score: 0 } (a tie is failed)
 * ```
 */
export function reduceTrials(
  reducer: TrialReducer,
  results: readonly TrialJudgeResult[],
): ReducedCase {
  const first = results[0];
  if (first === undefined) throw new JudgeConfigurationError('a reduced case needs a trial');
  const passed = results.filter((result) => result.status === 'passed').length;
  const scores = results.flatMap((result) => (result.score === null ? [] : [result.score]));
  const indicators = results.flatMap((result) =>
    result.status === 'skipped' ? [] : [result.status === 'passed' ? 1 : 0],
  );
  const allSkipped = indicators.length === 0;
  let passValue: number | null;
  let score: number | null;
  switch (reducer.kind) {
    case 'mode':
      passValue = passValueOfStatus(modeStatus(results.map((result) => result.status)));
      score = modeScore(scores);
      break;
    case 'pass_at':
      passValue =
        allSkipped || results.length < reducer.k
          ? null
          : passAtK(results.length, passed, reducer.k);
      score = reduceValues('mean', scores);
      break;
    case 'at_least':
      passValue = allSkipped ? null : passed >= reducer.k ? 1 : 0;
      score = reduceValues('mean', scores);
      break;
    default:
      passValue = reduceValues(reducer.kind, indicators);
      score = reduceValues(reducer.kind, scores);
  }
  return {
    kind: 'reduced',
    evaluationRunId: first.evaluationRunId,
    caseId: first.caseId,
    subjectId: first.subjectId,
    reducer: reducer.name,
    trials: results.length,
    passed,
    passValue,
    score,
  };
}

/**
 * `reduceTrials` folded one result at a time: a case is held until its
 * `trials` results are in, then reduced and handed back (so, with a case's
 * trials judged together, memory is bounded by the judgements in flight).
 *
 * @example
 * ```ts
 * const reducing = trialReducerAccumulator(parseTrialReducer('mean', 2), 2);
 * reducing.add({ ...passed, trial: 1 }); // null
 * reducing.add({ ...failed, trial: 2 }); // { kind: 'reduced', ..., passValue: 0.5, ... }
 * ```
 */
export function trialReducerAccumulator(
  reducer: TrialReducer,
  trials: number,
): {
  add(result: TrialJudgeResult): ReducedCase | null;
  /** Reduce the cases whose trials did not all come (a cancelled run). */
  flush(): ReducedCase[];
} {
  const open = new Map<string, TrialJudgeResult[]>();
  return {
    add(result) {
      const key = JSON.stringify([result.evaluationRunId, result.caseId, result.subjectId]);
      const held = open.get(key) ?? [];
      held.push(result);
      if (held.length < trials) {
        open.set(key, held);
        return null;
      }
      open.delete(key);
      return reduceTrials(reducer, held);
    },
    flush() {
      const rest = [...open.values()].map((held) => reduceTrials(reducer, held));
      open.clear();
      return rest;
    },
  };
}

/** The most frequent status; a tie among the most frequent is `failed`. */
function modeStatus(statuses: readonly JudgeStatus[]): JudgeStatus {
  const counts = new Map<JudgeStatus, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  const most = Math.max(...counts.values());
  const modes = [...counts].filter(([, count]) => count === most);
  return modes.length === 1 ? modes[0]![0] : 'failed';
}

/** The most frequent score; a tie is the lowest of the most frequent. */
function modeScore(scores: readonly number[]): number | null {
  const counts = new Map<number, number>();
  for (const score of scores) counts.set(score, (counts.get(score) ?? 0) + 1);
  let best: number | null = null;
  let bestCount = 0;
  for (const [score, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== null && score < best)) {
      best = score;
      bestCount = count;
    }
  }
  return best;
}

function passValueOfStatus(status: JudgeStatus): number | null {
  return status === 'passed' ? 1 : status === 'skipped' ? null : 0;
}

function reduceValues(
  kind: 'mean' | 'median' | 'max' | 'min',
  values: readonly number[],
): number | null {
  if (values.length === 0) return null;
  switch (kind) {
    case 'mean':
      return values.reduce((sum, value) => sum + value, 0) / values.length;
    case 'max':
      return Math.max(...values);
    case 'min':
      return Math.min(...values);
    case 'median': {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1
        ? sorted[middle]!
        : (sorted[middle - 1]! + sorted[middle]!) / 2;
    }
  }
}
