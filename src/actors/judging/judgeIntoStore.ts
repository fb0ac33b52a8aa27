import type { Observable } from 'rxjs';
import type { JudgeContext } from '../../domain/judge/context.js';
import { fanOutPulled } from './fanOutPulled.js';
import { type CaseOutcome, type JudgeCaseOptions, judgeCaseIntoStore } from './judgeCase.js';
import type { Judge } from './judges.js';

/**
 * Judge cases in this process into the judge store (`arena judge --store`
 * without `--nats`): the same per-case steps a worker takes (a verdict once
 * per case, the verdict cache, nothing after a cancel), at most `concurrency`
 * at once, each case read as a slot frees up. Unsubscribing cancels the
 * judgements in flight.
 *
 * @example
 * ```ts
 * judgeIntoStore(cases, { store, evaluationRunId, judge, cache: true, worker: null, concurrency: 8 })
 *   .subscribe((outcome) => bar.tick());
 * ```
 */
export function judgeIntoStore(
  cases: Iterable<JudgeContext> | AsyncIterable<JudgeContext>,
  options: Omit<JudgeCaseOptions, 'signal' | 'judge'> & {
    readonly judge: Judge;
    readonly concurrency: number;
  },
): Observable<CaseOutcome> {
  return fanOutPulled(cases, options.concurrency, (context, signal) =>
    judgeCaseIntoStore(context, { ...options, signal }),
  );
}
