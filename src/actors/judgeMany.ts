import { from, mergeMap, Observable, type ObservableInput } from 'rxjs';
import type { JudgeContext } from '../domain/judge/context.js';
import { JudgeConfigurationError } from '../domain/judge/errors.js';
import type { JudgeResult } from '../domain/judge/result.js';
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
 * The cache key of a judgement: the judge's identity and the prompt's sha256.
 *
 * @example
 * ```ts
 * judgeCacheKey(judge, context) === judgeCacheKey(judge, context); // true: same judge, same prompt
 * ```
 */
export function judgeCacheKey(judge: Judge, context: JudgeContext): string {
  return `${judge.identity}\u0000${judge.promptSha256(context)}`;
}

/** One judgement as a cold Observable; unsubscribing cancels it. */
function judgeOne(
  judge: Judge,
  context: JudgeContext,
  cache: JudgeResultCache | undefined,
): Observable<JudgeResult> {
  return new Observable<JudgeResult>((subscriber) => {
    const key = cache ? judgeCacheKey(judge, context) : '';
    const cached = cache?.get(key);
    if (cached) {
      subscriber.next(cached);
      subscriber.complete();
      return;
    }
    const controller = new AbortController();
    let settled = false;
    judge.evaluate(context, { signal: controller.signal }).then(
      (result) => {
        settled = true;
        if (cache && result.status !== 'error') cache.set(key, result);
        subscriber.next(result);
        subscriber.complete();
      },
      (error: unknown) => {
        settled = true;
        subscriber.error(error);
      },
    );
    // RxJS runs this teardown after completion too; only an unfinished judgement needs a cancel.
    return () => {
      if (!settled) controller.abort();
    };
  });
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
  return from(cases).pipe(
    mergeMap((context) => judgeOne(judge, context, options.cache), options.concurrency),
  );
}
