import { JudgeConfigurationError } from '../../domain/judge/errors.js';
import { reducedSummaryAccumulator } from '../../domain/judge/reducedSummary.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import type { JudgeSummary } from '../../domain/judge/summary.js';
import {
  parseTrialReducer,
  type ReducedCase,
  type TrialReducer,
  trialReducerAccumulator,
} from '../../domain/judge/trialReducers.js';
import type { TrialJudgeResult } from '../../domain/judge/trials.js';
import { CliError, ExitCode } from '../errors.js';

/**
 * Read `--reduce` for `--trials`: `null` when it is not given.
 *
 * @throws CliError (exit 2) naming the option: an unknown reducer, a K above the trials, or no trials to reduce.
 * @example
 * ```ts
 * parseReduceOption('pass_at_2', 3); // { kind: 'pass_at', k: 2, name: 'pass_at_2' }
 * parseReduceOption('pass_at_5', 3); // throws CliError('--reduce pass_at_5: pass_at_5 needs K from 1 to the trials (3), got 5')
 * ```
 */
export function parseReduceOption(value: string | undefined, trials: number): TrialReducer | null {
  if (value === undefined) return null;
  if (trials < 2) {
    throw new CliError(
      `--reduce ${value} needs --trials 2 or more: with one trial a case has nothing to reduce`,
      ExitCode.badInput,
    );
  }
  try {
    return parseTrialReducer(value, trials);
  } catch (error) {
    if (!(error instanceof JudgeConfigurationError)) throw error;
    throw new CliError(`--reduce ${value}: ${error.message}`, ExitCode.badInput, { cause: error });
  }
}

/**
 * The reduction of `arena judge --trials N --reduce R`: each case's trials
 * become one `reduced` record once its last trial is in (for `--out`), and the
 * summary's rates, intervals and gates are those of the reduced cases, beside
 * the raw counts, tokens and cost of every judgement.
 *
 * @example
 * ```ts
 * const reduction = trialReduction(parseTrialReducer('mean', 3), 3);
 * for (const result of results) reduction.add(result); // a ReducedCase after each case's third trial, else null
 * reduction.summaryOf(rawSummary).reduced; // { reducer: 'mean', trials: 3, cases: 4 }
 * ```
 */
export function trialReduction(
  reducer: TrialReducer,
  trials: number,
): {
  add(result: JudgeResult): ReducedCase | null;
  /** The cases whose trials did not all come, reduced. */
  flush(): ReducedCase[];
  summaryOf(raw: JudgeSummary): JudgeSummary;
} {
  const reducing = trialReducerAccumulator(reducer, trials);
  const summary = reducedSummaryAccumulator();
  const folded = (reduced: ReducedCase): ReducedCase => {
    summary.add(reduced);
    return reduced;
  };
  return {
    add(result) {
      const reduced = reducing.add(result as TrialJudgeResult);
      return reduced === null ? null : folded(reduced);
    },
    flush() {
      return reducing.flush().map(folded);
    },
    summaryOf(raw) {
      const { clusteredBy: _clustered, ...rest } = raw;
      return {
        ...rest,
        ...summary.rates(),
        reduced: { reducer: reducer.name, trials, cases: summary.cases },
      };
    },
  };
}
