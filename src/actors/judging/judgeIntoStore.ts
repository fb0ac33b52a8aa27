import { from, type Observable, type ObservableInput } from 'rxjs';
import type { JudgeContext } from '../../domain/judge/context.js';
import { fanOut } from './fanOut.js';
import { type CaseOutcome, type JudgeCaseOptions, judgeCaseIntoStore } from './judgeCase.js';
import type { Judge } from './judges.js';

/**
 * Judge cases in this process into the judge store (`arena judge --store`
 * without `--nats`): the same per-case steps a worker takes (a verdict once
 * per case, the verdict cache, nothing after a cancel), at most `concurrency`
 * at once. Unsubscribing cancels the judgements in flight.
 *
 * @example
 * ```ts
 * judgeIntoStore(cases, { store, evaluationRunId, judge, cache: true, worker: null, concurrency: 8 })
 *   .subscribe((outcome) => bar.tick());
 * ```
 */
export function judgeIntoStore(
  cases: ObservableInput<JudgeContext>,
  options: Omit<JudgeCaseOptions, 'signal' | 'judge'> & {
    readonly judge: Judge;
    readonly concurrency: number;
  },
): Observable<CaseOutcome> {
  return from(cases).pipe(
    fanOut(options.concurrency, (context, signal) =>
      judgeCaseIntoStore(context, { ...options, signal }),
    ),
  );
}
