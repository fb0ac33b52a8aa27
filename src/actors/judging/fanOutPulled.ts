import { Observable } from 'rxjs';
import { requireConcurrency, taskSlots } from './taskSlots.js';

/**
 * `fanOut` over a source it pulls from: the next item is read only when a
 * task's slot is free, so a cases file of any length is held at most
 * `concurrency` cases at a time (an Observable source pushes as fast as it
 * reads, and `fanOut` must queue what it cannot start). Results are emitted
 * as they settle; a task that throws or rejects, or a source that fails,
 * errors the stream; unsubscribing stops the reading (the iterator's
 * `return`) and aborts the signal of the tasks in flight. A task may answer
 * at once (a cached verdict): it holds no slot.
 *
 * @throws JudgeConfigurationError when `concurrency` is not a positive integer.
 * @example
 * ```ts
 * fanOutPulled(caseContexts(file, runId, path), 8, (context, signal) => judge.evaluate(context, { signal }))
 *   .subscribe((result) => console.log(result.caseId, result.status));
 * // case-2 passed
 * // case-1 failed
 * ```
 */
export function fanOutPulled<T, R>(
  source: AsyncIterable<T> | Iterable<T>,
  concurrency: number,
  task: (item: T, signal: AbortSignal) => R | PromiseLike<R>,
): Observable<R> {
  requireConcurrency(concurrency);
  return new Observable<R>((subscriber) => {
    const iterator =
      Symbol.asyncIterator in source
        ? (source as AsyncIterable<T>)[Symbol.asyncIterator]()
        : (source as Iterable<T>)[Symbol.iterator]();
    let pulling = false;
    let sourceDone = false;
    // one reader at a time: a slot freed while it reads is taken by the same loop
    const pull = async (): Promise<void> => {
      if (pulling) return;
      pulling = true;
      try {
        while (!subscriber.closed && !sourceDone && slots.inFlight < concurrency) {
          const next = await iterator.next();
          if (subscriber.closed) break;
          if (next.done === true) sourceDone = true;
          else slots.start(next.value);
        }
      } catch (error) {
        sourceDone = true;
        if (!subscriber.closed) subscriber.error(error);
      } finally {
        pulling = false;
      }
      if (!subscriber.closed && sourceDone && slots.inFlight === 0) subscriber.complete();
    };
    const slots = taskSlots(subscriber, concurrency, task, () => void pull());
    void pull();
    return () => {
      if (!sourceDone) {
        sourceDone = true;
        Promise.resolve(iterator.return?.()).catch(() => undefined);
      }
      slots.abortInFlight();
    };
  });
}
