import { setMaxListeners } from 'node:events';
import type { Subscriber } from 'rxjs';
import { JudgeConfigurationError } from '../../domain/judge/errors.js';

/** What both fan-outs start their tasks through. */
export interface TaskSlots<T> {
  /** Tasks started and not yet settled. */
  readonly inFlight: number;
  /** Start a task: its result goes to the subscriber when it settles, its error ends the stream. */
  start(item: T): void;
  /** Abort the signal the tasks in flight share, when there are any (the stream ended early). */
  abortInFlight(): void;
}

/**
 * The slots of a fan-out: tasks that all get one signal, counted while in
 * flight; a task that answers at once (a cached verdict) holds no slot;
 * `onSettled` runs after each result, to start the next.
 *
 * @example
 * ```ts
 * const slots = taskSlots(subscriber, 8, (context, signal) => judge.evaluate(context, { signal }), startNext);
 * if (slots.inFlight < 8) slots.start(next);
 * ```
 */
export function taskSlots<T, R>(
  subscriber: Subscriber<R>,
  concurrency: number,
  task: (item: T, signal: AbortSignal) => R | PromiseLike<R>,
  onSettled: () => void,
): TaskSlots<T> {
  const controller = new AbortController();
  // each task in flight may listen for the abort: that many listeners are expected
  setMaxListeners(concurrency + 1, controller.signal);
  let inFlight = 0;
  const settled = (result: R): void => {
    inFlight--;
    if (subscriber.closed) return;
    subscriber.next(result);
    onSettled();
  };
  const failed = (error: unknown): void => {
    inFlight--;
    if (!subscriber.closed) subscriber.error(error);
  };
  return {
    get inFlight() {
      return inFlight;
    },
    start(item) {
      let outcome: R | PromiseLike<R>;
      try {
        outcome = task(item, controller.signal);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      if (!isPromiseLike(outcome)) {
        subscriber.next(outcome);
        return;
      }
      inFlight++;
      outcome.then(settled, failed);
    },
    abortInFlight() {
      if (inFlight > 0) controller.abort();
    },
  };
}

/**
 * A fan-out's concurrency, checked when the fan-out is made.
 *
 * @throws JudgeConfigurationError when `concurrency` is not a positive integer.
 */
export function requireConcurrency(concurrency: number): void {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new JudgeConfigurationError(
      `concurrency must be a positive integer, got ${String(concurrency)}`,
    );
  }
}

function isPromiseLike<R>(value: R | PromiseLike<R>): value is PromiseLike<R> {
  return typeof (value as PromiseLike<R> | null)?.then === 'function';
}
