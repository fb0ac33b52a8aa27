import { defer, from, type Observable, type ObservableInput } from 'rxjs';
import type { JudgeContext } from '../../domain/judge/context.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import { fanOut } from './fanOut.js';
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
  const { cache } = options;
  const judging = fanOut<JudgeContext, JudgeResult>(
    options.concurrency,
    cache === undefined
      ? (context, signal) => judge.evaluate(context, { signal })
      : (context, signal) => {
          const key = judgeCacheKey(judge, context);
          const cached = cache.get(key);
          if (cached) return cached;
          return judge.evaluate(context, { signal }).then((result) => {
            // after an unsubscribe the signal is aborted: a late answer is not kept
            if (result.status !== 'error' && !signal.aborted) cache.set(key, result);
            return result;
          });
        },
  );
  // the cases are read at subscription, as each subscription judges them anew
  return defer(() => from(cases)).pipe(judging);
}
