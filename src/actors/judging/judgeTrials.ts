import type { Observable } from 'rxjs';
import type { JudgeContext } from '../../domain/judge/context.js';
import { JudgeConfigurationError } from '../../domain/judge/errors.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import type { TrialJudgeResult } from '../../domain/judge/trials.js';
import { fanOutPulled } from './fanOutPulled.js';
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
 * trial it is `judgeMany`; with more, each result carries its 1-based `trial`,
 * and a case's trials are started one after the other (cases are read as
 * slots free up, never held whole).
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
  cases: readonly JudgeContext[] | AsyncIterable<JudgeContext>,
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
  return fanOutPulled(trialsOf(cases, trials), options.concurrency, ({ trial, context }, signal) =>
    judge.evaluate(context, { signal }).then((result) => ({ ...result, trial })),
  );
}

/** Each case's trials one after the other: a case's stability is known once its trials are in. */
async function* trialsOf(
  cases: readonly JudgeContext[] | AsyncIterable<JudgeContext>,
  trials: number,
): AsyncGenerator<{ trial: number; context: JudgeContext }> {
  for await (const context of cases) {
    for (let trial = 1; trial <= trials; trial++) yield { trial, context };
  }
}
