import { setMaxListeners } from 'node:events';
import { from, Observable, type ObservableInput } from 'rxjs';
import type { JudgeContext } from '../../domain/judge/context.js';
import { JudgeConfigurationError } from '../../domain/judge/errors.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import { judgeCacheKey } from './judgeCacheKey.js';
import type { Judge } from './judges.js';

/** Where `judgeMany` keeps results; a `Map` will do. Errors are never stored. */
export interface JudgeResultCache {
  get(key: string): JudgeResult | undefined;
  set(key: string, result: JudgeResult): unknown;
}

/** How `judgeMany` runs: how many judgements at once, and an optional result cache. */
export interface JudgeManyOptions {
  /** The most judgements in flight at once (a positive integer). */
  readonly concurrency: number;
  readonly cache?: JudgeResultCache;
}

/**
 * Judge many subjects: at most `concurrency` judge actors run at once, each
 * result is emitted as soon as it finishes (not in input order), and
 * unsubscribing cancels every judgement in flight. A judgement that rejects
 * (bad config or input) errors the stream; bounded failures are `error` results.
 *
 * @example
 * ```ts
 * judgeMany(cases, judge, { concurrency: 8, cache: new Map() })
 *   .subscribe((result) => console.log(result.caseId, result.status));
 * // case-2 passed
 * // case-1 failed
 * ```
 */
export function judgeMany(
  cases: ObservableInput<JudgeContext>,
  judge: Judge,
  options: JudgeManyOptions,
): Observable<JudgeResult> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new JudgeConfigurationError(
      `concurrency must be a positive integer, got ${String(options.concurrency)}`,
    );
  }
  const { concurrency, cache } = options;
  // What mergeMap over one Observable per case would do, without the per-case Observable,
  // subscriber and AbortController: at 128 in flight those were a measurable part of each judgement.
  return new Observable<JudgeResult>((subscriber) => {
    // One signal for the judgements of this subscription: it aborts only if the subscription ends early.
    const controller = new AbortController();
    setMaxListeners(concurrency + 1, controller.signal);
    const waiting: JudgeContext[] = [];
    let nextWaiting = 0;
    let inFlight = 0;
    let sourceDone = false;
    const finished = (result: JudgeResult, key: string): void => {
      inFlight--;
      if (subscriber.closed) return;
      if (cache && result.status !== 'error') cache.set(key, result);
      subscriber.next(result);
      startWaiting();
    };
    const failed = (error: unknown): void => {
      inFlight--;
      if (subscriber.closed) return;
      subscriber.error(error);
    };
    const start = (context: JudgeContext): void => {
      let key = '';
      let cached: JudgeResult | undefined;
      try {
        key = cache ? judgeCacheKey(judge, context) : '';
        cached = cache?.get(key);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      if (cached) {
        subscriber.next(cached);
        return;
      }
      inFlight++;
      judge
        .evaluate(context, { signal: controller.signal })
        .then((result) => finished(result, key), failed);
    };
    const startWaiting = (): void => {
      while (!subscriber.closed && inFlight < concurrency && nextWaiting < waiting.length) {
        const context = waiting[nextWaiting]!;
        // Forget started cases, so a long stream does not keep them all.
        waiting[nextWaiting++] = undefined as unknown as JudgeContext;
        start(context);
      }
      if (nextWaiting === waiting.length) {
        waiting.length = 0;
        nextWaiting = 0;
      }
      if (!subscriber.closed && sourceDone && inFlight === 0 && waiting.length === 0)
        subscriber.complete();
    };
    const source = from(cases).subscribe({
      next: (context) => {
        waiting.push(context);
        startWaiting();
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        sourceDone = true;
        startWaiting();
      },
    });
    // Runs after completion too: only judgements still in flight need a cancel.
    return () => {
      source.unsubscribe();
      if (inFlight > 0) controller.abort();
    };
  });
}
