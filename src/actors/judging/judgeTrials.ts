import { from, type Observable } from 'rxjs';
import type { JudgeContext } from '../../domain/judge/context.js';
import { JudgeConfigurationError } from '../../domain/judge/errors.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import type { TrialJudgeResult } from '../../domain/judge/trials.js';
import { fanOut } from './fanOut.js';
import { type JudgeManyOptions, judgeMany } from './judgeMany.js';
import type { Judge } from './judges.js';

/** How `judgeTrials` runs: `judgeMany`'s options and the number of trials per case. */
export interface JudgeTrialsOptions extends JudgeManyOptions {
  /** Judgements per case, a positive integer; 1 is plain `judgeMany`. */
  readonly trials: number;
}

/**
 * Judge every case `trials` times with the same judge, each trial its own
 * judgement (never a cached one), at most `concurrency` at once. With one
 * trial it is `judgeMany`; with more, each result carries its 1-based `trial`.
 * Unsubscribing cancels every judgement in flight.
 *
 * @throws JudgeConfigurationError for a trial count or concurrency that is not
 * a positive integer, or a cache with more than one trial (trials must be independent).
 * @example
 * ```ts
 * judgeTrials(cases, judge, { concurrency: 4, trials: 3 })
 *   .subscribe((result) => console.log(result.caseId, (result as TrialJudgeResult).trial, result.status));
 * // arith-1 1 passed
 * // arith-1 2 passed ...
 * ```
 */
export function judgeTrials(
  cases: readonly JudgeContext[],
  judge: Judge,
  options: JudgeTrialsOptions,
): Observable<JudgeResult | TrialJudgeResult> {
  const { trials, ...manyOptions } = options;
  if (!Number.isInteger(trials) || trials < 1) {
    throw new JudgeConfigurationError(`trials must be a positive integer, got ${String(trials)}`);
  }
  if (trials === 1) return judgeMany(cases, judge, manyOptions);
  if (options.cache !== undefined) {
    throw new JudgeConfigurationError(
      'trials are independent judgements: judge them without a cache',
    );
  }
  const judging = fanOut<{ trial: number; context: JudgeContext }, TrialJudgeResult>(
    options.concurrency,
    ({ trial, context }, signal) =>
      judge.evaluate(context, { signal }).then((result) => ({ ...result, trial })),
  );
  const runs = Array.from({ length: trials }, (_, index) =>
    cases.map((context) => ({ trial: index + 1, context })),
  ).flat();
  return from(runs).pipe(judging);
}
