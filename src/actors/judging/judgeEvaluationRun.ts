import { defer, fromEvent, lastValueFrom, NEVER, of, takeUntil, tap } from 'rxjs';
import type { JudgeContext } from '../../domain/judge/context.js';
import { isServerFailure } from '../../ports/runtime/serverFailure.js';
import type {
  EvaluationRunRecord,
  JudgeStore,
  NewEvaluationRun,
} from '../../ports/store/judgeStore.js';
import { EvaluationRunCancelledError } from './evaluationRunErrors.js';
import { cancelEvaluationRun } from './evaluationRuns.js';
import type { CaseOutcome } from './judgeCase.js';
import { judgeIntoStore } from './judgeIntoStore.js';
import type { Judge } from './judges.js';

/** What `judgeEvaluationRun` needs besides the cases. */
export interface JudgeEvaluationRunOptions {
  readonly store: JudgeStore;
  readonly judge: Judge;
  /** The run to record; its `cache` says whether the verdict cache is read and filled. */
  readonly run: NewEvaluationRun;
  readonly concurrency: number;
  /** Lines of the cases file that were not cases, recorded with the run. */
  readonly malformedLines: number;
  /** Aborting cancels the run: the judgements in flight are cancelled and none is recorded. */
  readonly signal?: AbortSignal;
  /** Each case as its verdict is in. */
  readonly onJudged?: (outcome: CaseOutcome) => void;
}

/**
 * Judge cases in this process as one evaluation run of the judge store
 * (`arena judge --store` without `--nats`): the run is recorded, its cases
 * judged into it as a worker judges them (see `judgeIntoStore`), and it ends
 * with as many cases as it has verdicts (duplicate lines share one). Cases
 * given as an async iterable are read as slots free up, never held whole. A
 * judgement that rejects fails the run with its message, then rejects.
 *
 * @throws EvaluationRunCancelledError when `signal` aborted first.
 * @example
 * ```ts
 * const run = await judgeEvaluationRun(cases, { store, judge, run: newRun, concurrency: 8, malformedLines: 0 });
 * run.status; // 'succeeded'
 * ```
 */
export async function judgeEvaluationRun(
  cases: readonly JudgeContext[] | AsyncIterable<JudgeContext>,
  options: JudgeEvaluationRunOptions,
): Promise<EvaluationRunRecord> {
  const { store, signal } = options;
  const { evaluationRunId } = await store.createEvaluationRun(options.run);
  let interrupted = false;
  // an abort ends the judging: unsubscribing cancels the judgements in flight, none is recorded after
  const aborted =
    signal === undefined
      ? NEVER
      : defer(() => (signal.aborted ? of(null) : fromEvent(signal, 'abort'))).pipe(
          tap(() => {
            interrupted = true;
          }),
        );
  const judging = judgeIntoStore(cases, {
    store,
    evaluationRunId,
    judge: options.judge,
    cache: options.run.cache,
    worker: null,
    concurrency: options.concurrency,
    // a run created here has no verdict yet: a case given twice is judged twice and recorded once
    mayHaveVerdict: false,
  }).pipe(
    tap((judged) => options.onJudged?.(judged)),
    takeUntil(aborted),
  );
  try {
    await lastValueFrom(judging, { defaultValue: null });
  } catch (error) {
    // a server that stayed away is not the run's fault: it stays running, to be judged again
    if (!isServerFailure(error)) {
      await store.failEvaluationRun(evaluationRunId, messageOf(error)).catch(() => undefined);
    }
    throw error;
  }
  if (interrupted) {
    await cancelEvaluationRun(store, evaluationRunId);
    throw new EvaluationRunCancelledError(evaluationRunId);
  }
  // duplicate lines share one verdict: the run holds as many cases as it has verdicts
  return store.setCasesTotal(
    evaluationRunId,
    await store.verdictCount(evaluationRunId),
    options.malformedLines,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
