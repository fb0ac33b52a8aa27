import type { JudgeQueue } from '../../ports/queue/judgeQueue.js';
import type { JudgeStore } from '../../ports/store/judgeStore.js';

/** What `requeueCases` did for one running evaluation run. */
export interface RequeuedCases {
  readonly evaluationRunId: string;
  /** Unjudged cases published again (the queue had lost them). */
  readonly putBack: number;
  /** Unjudged cases the queue still held (found in it, or dropped as duplicates of their message id). */
  readonly stillQueued: number;
}

/**
 * The store is the truth, the queue a cache of it: publish again every case
 * of every running evaluation run that has no verdict yet, from the cases
 * the store kept at submit, that the queue does not hold. What it holds is
 * read from it first (the duplicate window forgets after minutes, the queue
 * does not); a message of the same cases queued meanwhile is dropped as a
 * duplicate, and a case queued twice is judged into one verdict (the store's unique key).
 *
 * @example
 * ```ts
 * await requeueCases(store, queue);
 * // [{ evaluationRunId: 'quality-20260301T101500-3fa2', putBack: 1520, stillQueued: 0 }]
 * ```
 */
export async function requeueCases(
  store: Pick<JudgeStore, 'runningEvaluationRuns' | 'unjudgedCases'>,
  queue: Pick<JudgeQueue, 'submit' | 'submitCases' | 'queuedCaseKeys'>,
  pageSize = 500,
): Promise<RequeuedCases[]> {
  const done: RequeuedCases[] = [];
  for (const run of await store.runningEvaluationRuns()) {
    const { evaluationRunId } = run;
    let putBack = 0;
    let stillQueued = 0;
    const held = (await queue.queuedCaseKeys?.(evaluationRunId)) ?? new Set<string>();
    let afterKey: string | undefined;
    for (;;) {
      const page = await store.unjudgedCases(evaluationRunId, {
        limit: pageSize,
        ...(afterKey !== undefined ? { afterKey } : {}),
      });
      const missing = page.filter((each) => !held.has(each.caseKey));
      stillQueued += page.length - missing.length;
      const jobs = missing.map((each) => ({ evaluationRunId, caseKey: each.caseKey }));
      if (queue.submitCases !== undefined) {
        // messages of several cases, as the submitter's; a message published again is a duplicate
        const { duplicates } = await queue.submitCases(jobs);
        stillQueued += duplicates;
        putBack += jobs.length - duplicates;
      } else {
        const receipts = await Promise.all(jobs.map((job) => queue.submit(job)));
        for (const { duplicate } of receipts) {
          if (duplicate) stillQueued++;
          else putBack++;
        }
      }
      if (page.length < pageSize) break;
      afterKey = page[page.length - 1]?.caseKey;
    }
    done.push({ evaluationRunId, putBack, stillQueued });
  }
  return done;
}
