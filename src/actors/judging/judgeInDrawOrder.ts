import type { JudgeContext } from '../../domain/judge/context.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import { reorderBuffer } from '../../domain/stats/reorderBuffer.js';
import { fanOutPulled } from './fanOutPulled.js';
import type { Judge } from './judges.js';

/**
 * What judges one case in draw order, when it is not a judge's own
 * `evaluate` (a store-backed run judges into the store, or hands back the
 * verdict a resumed run holds already).
 */
export type DrawOrderEvaluator<R> = (context: JudgeContext, signal: AbortSignal) => Promise<R>;

/** The part of a result the fold reads. */
export type FoldedResult = Pick<JudgeResult, 'status' | 'score'>;

/** How `judgeInDrawOrder` runs. */
export interface JudgeInDrawOrderOptions<R extends FoldedResult = JudgeResult> {
  /** `order[i]`: the file index of the i-th case drawn. */
  readonly order: Uint32Array;
  /** The case at a file index, read when it is about to be judged. */
  readonly caseAt: (fileIndex: number) => Promise<JudgeContext>;
  readonly concurrency: number;
  /** The most draw indices judging may run ahead of the fold: a case is started only below `folded + aheadLimit`. */
  readonly aheadLimit: number;
  /** Each result as it completes (paid for, folded or not). */
  readonly onJudged?: (result: R, drawIndex: number) => void;
  /** Each result in draw order; returns true once the decision is reached (nothing more is folded). */
  readonly fold: (result: R, drawIndex: number) => boolean;
  /** Stops judging from outside (Ctrl-C): judgements in flight are cancelled. */
  readonly signal?: AbortSignal;
}

/** What `judgeInDrawOrder` did: judgements made and results folded, and whether the fold decided. */
export interface DrawOrderOutcome {
  readonly judged: number;
  readonly folded: number;
  readonly decided: boolean;
}

/** The run-ahead bound of the sequential gate: this many times the concurrency. */
export const AHEAD_FACTOR = 4;

/**
 * Judge cases in draw order, at most `concurrency` at once, and fold the
 * results in draw order, not as they complete: a result waits in a reorder
 * buffer for the cases drawn before it, so slow cases (often the failing
 * ones) cannot tilt an early decision. A case is started only while it is
 * fewer than `aheadLimit` draws past the fold, so a slow case cannot make
 * judging spend far past a decision. Once `fold` decides, the judgements in
 * flight are cancelled (a cancellation is never a verdict) and nothing more
 * is started. `start` is the draw index the fold is at (a resumed run's).
 *
 * @example
 * ```ts
 * await judgeInDrawOrder(judge, {
 *   order: drawOrder(1000, seed), caseAt, concurrency: 8, aheadLimit: 32,
 *   fold: (result) => (state = foldSequentialGates(state, result)).decision !== null,
 * });
 * // { judged: 44, folded: 41, decided: true }
 * ```
 */
export function judgeInDrawOrder<R extends FoldedResult = JudgeResult>(
  judge: Judge | DrawOrderEvaluator<R>,
  options: JudgeInDrawOrderOptions<R>,
  start = 0,
): Promise<DrawOrderOutcome> {
  const { order, aheadLimit } = options;
  const evaluate: DrawOrderEvaluator<R> =
    typeof judge === 'function'
      ? judge
      : // a judge's results are JudgeResults: R is JudgeResult when a Judge is given
        (context, signal) => judge.evaluate(context, { signal }) as unknown as Promise<R>;
  const buffer = reorderBuffer<R>(start);
  let judged = 0;
  let decided = false;
  let foldedAtDecision = 0;
  let stopped = false;
  // the reader waits here while it is `aheadLimit` draws past the fold
  let wakeReader: (() => void) | undefined;
  const wake = (): void => {
    const waiting = wakeReader;
    wakeReader = undefined;
    waiting?.();
  };
  async function* drawn(): AsyncGenerator<{ drawIndex: number; context: JudgeContext }> {
    for (let drawIndex = start; drawIndex < order.length; drawIndex++) {
      while (!stopped && drawIndex >= buffer.next + aheadLimit) {
        await new Promise<void>((resolve) => {
          wakeReader = resolve;
        });
      }
      if (stopped) return;
      yield { drawIndex, context: await options.caseAt(order[drawIndex]!) };
    }
  }
  return new Promise<DrawOrderOutcome>((resolve, reject) => {
    const finish = (error?: unknown): void => {
      if (stopped) return;
      stopped = true;
      wake();
      subscription.unsubscribe();
      options.signal?.removeEventListener('abort', onAbort);
      if (error !== undefined) reject(error);
      else resolve({ judged, folded: decided ? foldedAtDecision : buffer.next - start, decided });
    };
    const onAbort = (): void => finish(options.signal?.reason ?? new Error('aborted'));
    const subscription = fanOutPulled(
      drawn(),
      options.concurrency,
      ({ drawIndex, context }, signal) =>
        evaluate(context, signal).then((result) => ({ drawIndex, result })),
    ).subscribe({
      next: ({ drawIndex, result }) => {
        if (stopped) return;
        judged++;
        options.onJudged?.(result, drawIndex);
        const first = buffer.next;
        const ready = buffer.add(drawIndex, result);
        for (let k = 0; k < ready.length; k++) {
          if (options.fold(ready[k]!, first + k)) {
            decided = true;
            foldedAtDecision = first + k + 1 - start;
            finish();
            return;
          }
        }
        wake();
      },
      error: (error: unknown) => finish(error),
      complete: () => finish(),
    });
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
