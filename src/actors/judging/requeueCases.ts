import type { JudgeQueue } from '../../ports/judgeQueue.js';
import type { JudgeStore } from '../../ports/judgeStore.js';

/** What `requeueCases` did for one running evaluation run. */
export interface RequeuedCases {
  readonly evaluationRunId: string;
  /** Unjudged cases published again (the queue had lost them). */
  readonly putBack: number;
  /** Unjudged cases the queue still held (dropped as duplicates of their message id). */
  readonly stillQueued: number;
}

/**
 * The store is the truth, the queue a cache of it: publish again every case
 * of every running evaluation run that has no verdict yet, from the cases
 * the store kept at submit. The case key is the message id, so a case the
 * queue still holds is dropped as a duplicate; a case judged twice is
 * recorded once.
 *
 * @example
 * ```ts
 * await requeueCases(store, queue);
 * // [{ evaluationRunId: 'quality-20260301T101500-3fa2', putBack: 1520, stillQueued: 0 }]
 * ```
 */
export async function requeueCases(
  store: Pick<JudgeStore, 'runningEvaluationRuns' | 'unjudgedCases'>,
  queue: Pick<JudgeQueue, 'submit'>,
  pageSize = 500,
): Promise<RequeuedCases[]> {
  const done: RequeuedCases[] = [];
  for (const run of await store.runningEvaluationRuns()) {
    const { evaluationRunId } = run;
    let putBack = 0;
    let stillQueued = 0;
    let afterKey: string | undefined;
    for (;;) {
      const page = await store.unjudgedCases(evaluationRunId, {
        limit: pageSize,
        ...(afterKey !== undefined ? { afterKey } : {}),
      });
      const receipts = await Promise.all(
        page.map((each) => queue.submit({ evaluationRunId, context: each.context }, each.caseKey)),
      );
      for (const { duplicate } of receipts) {
        if (duplicate) stillQueued++;
        else putBack++;
      }
      if (page.length < pageSize) break;
      afterKey = page[page.length - 1]?.caseKey;
    }
    done.push({ evaluationRunId, putBack, stillQueued });
  }
  return done;
}
