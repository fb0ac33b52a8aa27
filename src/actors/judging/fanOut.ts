import { Observable, type OperatorFunction } from 'rxjs';
import { requireConcurrency, taskSlots } from './taskSlots.js';

/**
 * `mergeMap(task, concurrency)` for judgements: at most `concurrency` tasks
 * in flight, each result emitted as soon as it settles (not in input order),
 * a task that throws or rejects errors the stream, and the stream completes
 * when the source has and nothing is in flight. Every task of a subscription
 * gets the same signal, aborted only when the subscription ends with tasks
 * still in flight (unsubscribed, or another task failed). A task may answer
 * at once (a cached verdict): it waits its turn, but holds no slot.
 *
 * Written out rather than mergeMap: mergeMap queues in an array it shifts
 * (quadratic over a long cases file) and builds an Observable, a subscriber
 * and, here, an AbortController per item.
 *
 * @throws JudgeConfigurationError when `concurrency` is not a positive integer.
 * @example
 * ```ts
 * from(cases)
 *   .pipe(fanOut(8, (context, signal) => judge.evaluate(context, { signal })))
 *   .subscribe((result) => console.log(result.caseId, result.status));
 * // case-2 passed
 * // case-1 failed
 * ```
 */
export function fanOut<T, R>(
  concurrency: number,
  task: (item: T, signal: AbortSignal) => R | PromiseLike<R>,
): OperatorFunction<T, R> {
  requireConcurrency(concurrency);
  return (source) =>
    new Observable<R>((subscriber) => {
      const waiting: T[] = [];
      let nextWaiting = 0;
      let sourceDone = false;
      const startWaiting = (): void => {
        while (!subscriber.closed && slots.inFlight < concurrency && nextWaiting < waiting.length) {
          const item = waiting[nextWaiting]!;
          // Forget started items, so a long stream does not keep them all.
          waiting[nextWaiting++] = undefined as T;
          slots.start(item);
        }
        if (nextWaiting === waiting.length) {
          waiting.length = 0;
          nextWaiting = 0;
        } else if (nextWaiting > 1024 && nextWaiting * 2 > waiting.length) {
          // a source that never lets the queue run dry: drop the started half, amortised O(1)
          waiting.splice(0, nextWaiting);
          nextWaiting = 0;
        }
        if (!subscriber.closed && sourceDone && slots.inFlight === 0 && waiting.length === 0) {
          subscriber.complete();
        }
      };
      const slots = taskSlots(subscriber, concurrency, task, startWaiting);
      const subscription = source.subscribe({
        next: (item) => {
          waiting.push(item);
          startWaiting();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sourceDone = true;
          startWaiting();
        },
      });
      // Runs after completion too: only tasks still in flight need a cancel.
      return () => {
        subscription.unsubscribe();
        slots.abortInFlight();
      };
    });
}
