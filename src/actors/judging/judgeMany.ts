import { defer, from, type Observable, type ObservableInput } from 'rxjs';
import { checkJudgeSubject, type JudgeContext } from '../../domain/judge/context.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import { fanOut } from './fanOut.js';
import { fanOutPulled } from './fanOutPulled.js';
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
 * unsubscribing cancels every judgement in flight. An async iterable of
 * cases is read only as judgements finish, so it is never held whole. A judgement that rejects
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
  const { cache } = options;
  const task =
    cache === undefined
      ? (context: JudgeContext, signal: AbortSignal): JudgeResult | Promise<JudgeResult> =>
          judge.evaluate(context, { signal })
      : (subject: JudgeContext, signal: AbortSignal): JudgeResult | Promise<JudgeResult> => {
          // checked before its cache key is made of it; the judge then finds it checked
          const context = checkJudgeSubject(subject);
          const key = judgeCacheKey(judge, context);
          const cached = cache.get(key);
          if (cached) return cached;
          return judge.evaluate(context, { signal }).then((result) => {
            // after an unsubscribe the signal is aborted: a late answer is not kept
            if (result.status !== 'error' && !signal.aborted) cache.set(key, result);
            return result;
          });
        };
  // an async iterable (a file being read) is pulled a case at a time, as slots free up
  if (isAsyncIterable(cases)) return fanOutPulled(cases, options.concurrency, task);
  // the cases are read at subscription, as each subscription judges them anew
  return defer(() => from(cases)).pipe(fanOut(options.concurrency, task));
}

function isAsyncIterable<T>(value: ObservableInput<T>): value is AsyncIterable<T> {
  return typeof (value as Partial<AsyncIterable<T>>)[Symbol.asyncIterator] === 'function';
}
