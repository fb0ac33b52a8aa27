import type { Observable } from 'rxjs';
import type { JudgeContext } from '../../domain/judge/context.js';
import { batchingVerdictWriter } from '../../ports/store/verdictWriter.js';
import { fanOutPulled } from './fanOutPulled.js';
import { type CaseOutcome, type JudgeCaseOptions, judgeCaseIntoStore } from './judgeCase.js';
import type { Judge } from './judges.js';

/**
 * Judge cases in this process into the judge store (`arena judge --store`
 * without `--nats`): the same per-case steps a worker takes (a verdict once
 * per case, the verdict cache, nothing after a cancel), at most `concurrency`
 * at once, each case read as a slot frees up. Verdicts of the same moment
 * commit together, and cache reads go together (`batchingVerdictWriter`,
 * unless `verdicts` is given); an outcome is emitted once its verdict
 * committed. Unsubscribing cancels the judgements in flight.
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
  // a batch holds at most every slot's verdict: when all of them wait, it commits at once
  const verdicts =
    options.verdicts ?? batchingVerdictWriter(options.store, { maxVerdicts: options.concurrency });
  return fanOutPulled(cases, options.concurrency, (context, signal) =>
    judgeCaseIntoStore(context, { ...options, verdicts, signal }),
  );
}
