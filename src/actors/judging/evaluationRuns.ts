import {
  type CaseLineOutcome,
  contextsOfLine,
  type MalformedCaseLine,
} from '../../domain/judge/cases.js';
import type { JudgeQueue, QueuedCase } from '../../ports/queue/judgeQueue.js';
import { statusPollMs, statusSafetyNetMs, statusWake } from '../../ports/queue/statusHints.js';
import {
  caseKeyOf,
  type EvaluationRunRecord,
  type JudgeStore,
  type NewEvaluationRun,
  type StoredCase,
  type StoredVerdict,
} from '../../ports/store/judgeStore.js';
import { EvaluationRunCancelledError, EvaluationRunFailedError } from './evaluationRunErrors.js';

/** What `submitEvaluationRun` needs. */
export interface SubmitEvaluationOptions {
  readonly store: JudgeStore;
  readonly queue: JudgeQueue;
  readonly run: NewEvaluationRun;
  /** Publishes awaiting the server's ack at once: the file streams, it is never held whole. Default 256. */
  readonly window?: number;
  /** Each malformed line, as it is read (it is reported, never judged). */
  readonly onMalformed?: (problem: MalformedCaseLine) => void;
  /** How many cases are queued so far. */
  readonly onQueued?: (queued: number) => void;
}

/** A submitted evaluation run. */
export interface SubmittedEvaluation {
  readonly run: EvaluationRunRecord;
  /** Lines whose case (run, case id, subject) was queued before: judged once. */
  readonly duplicates: number;
}

/**
 * Record an evaluation run and stream its cases onto the judge queue, at most
 * `window` publishes in flight, so the submitter's memory does not grow with
 * the file. Once every line is read, the run records how many cases it
 * holds; the last verdict then ends it. A case the queue refuses fails the
 * run with the reason, so no worker waits for cases that never come.
 *
 * @example
 * ```ts
 * const { run } = await submitEvaluationRun(lines, { store, queue, run: newRun });
 * run.casesTotal; // 2000
 * ```
 */
export async function submitEvaluationRun(
  lines: AsyncIterable<CaseLineOutcome>,
  options: SubmitEvaluationOptions,
): Promise<SubmittedEvaluation> {
  const { store, queue } = options;
  const window = options.window ?? 256;
  const created = await store.createEvaluationRun(options.run);
  const { evaluationRunId } = created;
  const pending = new Set<Promise<void>>();
  let queued = 0;
  let duplicates = 0;
  const submittedKeys = new Set<string>();
  let malformed = 0;
  let failure: unknown = null;
  // each case is kept in the store before it is queued: the queue can be rebuilt from the store
  let batch: StoredCase[] = [];
  // the cases of one message: consecutive cases of this run, published together
  const perMessage = queue.submitCases !== undefined ? (queue.casesPerMessage ?? 1) : 1;
  const publish = async (jobs: QueuedCase[]): Promise<void> => {
    const sent: Promise<void> = (
      perMessage > 1 && queue.submitCases !== undefined
        ? queue.submitCases(jobs)
        : Promise.all(jobs.map((job) => queue.submit(job)))
    )
      .then(
        () => {
          // counted before the callback: an optional call skips its arguments when absent
          queued += jobs.length;
          options.onQueued?.(queued);
        },
        (error: unknown) => {
          failure ??= error;
        },
      )
      .finally(() => pending.delete(sent));
    pending.add(sent);
    // `window` cases in flight, counted in messages
    if (pending.size * perMessage >= window) await Promise.race(pending);
  };
  const flush = async (): Promise<void> => {
    const cases = batch;
    batch = [];
    await store.recordCases(evaluationRunId, cases);
    let message: QueuedCase[] = [];
    for (const { caseKey } of cases) {
      // a line judged once already in this file (the same case twice) is a duplicate; the
      // queue's own duplicate receipt is not: a publish retried across a server restart gets one
      if (submittedKeys.has(caseKey)) {
        duplicates++;
        continue;
      }
      submittedKeys.add(caseKey);
      message.push({ evaluationRunId, caseKey });
      if (message.length >= perMessage) {
        await publish(message);
        message = [];
      }
    }
    if (message.length > 0) await publish(message);
  };
  try {
    for await (const each of lines) {
      if (failure !== null) break;
      if (each.kind === 'malformed') {
        malformed++;
        options.onMalformed?.(each.problem);
        continue;
      }
      // a pairwise case is queued as its judgements: every order of every pair
      for (const context of contextsOfLine(each)) {
        batch.push({ caseKey: caseKeyOf(context), context });
      }
      if (batch.length >= window) await flush();
    }
    if (failure === null) await flush();
    await Promise.all(pending);
    if (failure !== null) throw failure;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await store.failEvaluationRun(evaluationRunId, `cases could not be queued: ${reason}`);
    await queue.purge(evaluationRunId).catch(() => undefined);
    throw error;
  }
  const run = await store.setCasesTotal(evaluationRunId, queued, malformed);
  return { run, duplicates };
}

/**
 * Wait until an evaluation run ends (every verdict in, cancelled or failed),
 * reading its verdict count for one progress figure over all workers: each
 * time a worker tells `queue` the run changed (at most every 250 ms), and
 * every `pollMs` besides (default 5 s with a queue that tells, else 250 ms),
 * as a hint may be lost or refused. Resolves with the ended run; an aborted
 * `signal` resolves with the run as it stands.
 *
 * @example
 * ```ts
 * const run = await followEvaluationRun(store, id, { queue, onProgress: (done, total) => bar.update(done) });
 * run.status; // 'succeeded'
 * ```
 */
export async function followEvaluationRun(
  store: JudgeStore,
  evaluationRunId: string,
  options: {
    readonly pollMs?: number;
    readonly signal?: AbortSignal;
    readonly onProgress?: (done: number, total: number | null) => void;
    /** Where workers tell of the run's changes (`announceStatus`). */
    readonly queue?: JudgeQueue;
  } = {},
): Promise<EvaluationRunRecord> {
  const { signal } = options;
  const listen = options.queue?.onStatus?.bind(options.queue);
  const pollMs = options.pollMs ?? (listen !== undefined ? statusSafetyNetMs : statusPollMs);
  const wake = statusWake();
  // heard before the first read: no change between the two is missed
  const stopListening = listen?.(evaluationRunId, wake.hear);
  try {
    for (;;) {
      wake.reading();
      const run = await store.getEvaluationRun(evaluationRunId);
      options.onProgress?.(await store.verdictCount(evaluationRunId), run.casesTotal);
      if (run.status !== 'running' || signal?.aborted) return run;
      await wake.pause(pollMs, signal);
    }
  } finally {
    stopListening?.();
  }
}

/**
 * Every stored verdict of a run, `pageSize` rows at a time in recording order:
 * a run of any size is read in bounded memory.
 *
 * @example
 * ```ts
 * for await (const verdict of storedVerdicts(store, id)) out.write(`${JSON.stringify(verdict.result)}\n`);
 * ```
 */
export async function* storedVerdicts(
  store: JudgeStore,
  evaluationRunId: string,
  pageSize = 1000,
): AsyncGenerator<StoredVerdict> {
  let afterSeq: number | undefined;
  for (;;) {
    const page = await store.verdicts(evaluationRunId, {
      limit: pageSize,
      ...(afterSeq !== undefined ? { afterSeq } : {}),
    });
    yield* page;
    if (page.length < pageSize) return;
    afterSeq = page[page.length - 1]!.seq;
  }
}

/**
 * The verdicts of an ended run (see `storedVerdicts`), checked first: a
 * cancelled or failed run has no result to give.
 *
 * @throws EvaluationRunCancelledError or EvaluationRunFailedError, at the call.
 * @example
 * ```ts
 * for await (const verdict of endedRunVerdicts(store, run)) summary.add(verdict.result);
 * ```
 */
export function endedRunVerdicts(
  store: JudgeStore,
  run: EvaluationRunRecord,
): AsyncGenerator<StoredVerdict> {
  if (run.status === 'cancelled') throw new EvaluationRunCancelledError(run.evaluationRunId);
  if (run.status === 'failed') throw new EvaluationRunFailedError(run.evaluationRunId, run.error);
  return storedVerdicts(store, run.evaluationRunId);
}

/**
 * Cancel an evaluation run for the whole fleet: no verdict is recorded after
 * this, its queued cases are dropped, and the workers cancel its judgements
 * in flight.
 *
 * @example
 * ```ts
 * await cancelEvaluationRun(store, id, queue); // run.status === 'cancelled'
 * ```
 */
export async function cancelEvaluationRun(
  store: JudgeStore,
  evaluationRunId: string,
  queue?: JudgeQueue,
): Promise<EvaluationRunRecord> {
  const run = await store.cancelEvaluationRun(evaluationRunId);
  if (queue !== undefined) {
    queue.announceCancel(evaluationRunId);
    await queue.purge(evaluationRunId).catch(() => undefined);
  }
  return run;
}
