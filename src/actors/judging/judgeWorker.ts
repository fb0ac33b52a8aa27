import { JudgeCancelledError } from '../../domain/judge/errors.js';
import { ArenaError } from '../../domain/shared/errors.js';
import type { JudgeQueue, QueuedCaseDelivery } from '../../ports/queue/judgeQueue.js';
import { throttledStatusHints } from '../../ports/queue/statusHints.js';
import { type Logger, silentLogger } from '../../ports/runtime/logger.js';
import {
  defaultServerPatienceMs,
  isServerFailure,
  ServerUnavailableError,
  withPatience,
} from '../../ports/runtime/serverFailure.js';
import {
  EvaluationRunNotFoundError,
  type EvaluationRunRecord,
  type JudgeStore,
  type VerdictRecording,
} from '../../ports/store/judgeStore.js';
import { patientJudgeStore } from '../../ports/store/patientJudgeStore.js';
import {
  batchingVerdictWriter,
  type VerdictBatchOptions,
} from '../../ports/store/verdictWriter.js';
import { judgeCaseIntoStore } from './judgeCase.js';
import type { Judge } from './judges.js';
import { createModelPauses } from './modelPauses.js';

/** What a judge worker tells about each case it handles. */
export type JudgeWorkerEvent =
  | {
      readonly type: 'judged';
      readonly evaluationRunId: string;
      readonly caseId: string;
      readonly recording: VerdictRecording;
      readonly fromCache: boolean;
    }
  /** Acked without judging: the case had its verdict already, or its run has ended. */
  | { readonly type: 'dropped'; readonly evaluationRunId: string; readonly caseId: string }
  /** Acked without judging: the message names a case its run does not hold (forged, or stray). */
  | { readonly type: 'unknownCase'; readonly evaluationRunId: string; readonly caseKey: string }
  /** The run cannot be judged here (its config or a case is bad): the run failed. */
  | { readonly type: 'failed'; readonly evaluationRunId: string; readonly error: unknown }
  | { readonly type: 'queueError'; readonly error: unknown };

/** What `runJudgeWorker` works with: the store, the queue, its concurrency and its stop signal. */
export interface JudgeWorkerOptions {
  readonly store: JudgeStore;
  readonly queue: JudgeQueue;
  /** Judgements in flight in this worker at once (the fleet's cap is the queue's). */
  readonly concurrency: number;
  /** The queue's ack wait: each case in progress is kept so three times per it. */
  readonly ackWaitMs: number;
  /** The worker's name, stored with each verdict. */
  readonly name: string | null;
  /** Aborting stops taking cases and gives the ones in flight back to the queue. */
  readonly signal: AbortSignal;
  readonly logger?: Logger;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly onEvent?: (event: JudgeWorkerEvent) => void;
  /**
   * The folders an agent judge's module may be imported from (by real path):
   * a run whose agent module is elsewhere fails, the module never imported;
   * default anywhere (`arena worker` passes its run-module folders).
   */
  readonly moduleRoots?: readonly string[];
  /** The judge of a run; default: from the config stored with it (`judgeOfEvaluationRun`). */
  readonly judgeFor?: (run: EvaluationRunRecord) => Promise<Judge>;
  /**
   * How long a lost store server is waited for (the cases in hand keep their
   * verdicts until it is back) before the worker gives up with
   * `ServerUnavailableError`; default `defaultServerPatienceMs`.
   */
  readonly serverPatienceMs?: number;
  /** How verdicts are gathered into one transaction; default up to `concurrency` of them, 10 ms. */
  readonly verdictBatch?: VerdictBatchOptions;
}

/** What a judge worker did, when it stopped. */
export interface JudgeWorkerTally {
  readonly recorded: number;
  readonly cached: number;
  readonly duplicate: number;
  readonly dropped: number;
  /** Messages naming a case the store does not hold: acked, logged, never judged. */
  readonly unknown: number;
  readonly handedBack: number;
}

/**
 * How long a run's status is trusted before it is read again: a slow safety
 * net, as a cancel message makes a worker read it at once.
 */
const statusTtlMs = 5000;

/**
 * Take cases off the judge queue and judge them into the judge store until
 * `signal` aborts. At most `concurrency` judgements run at once; each case is
 * kept in progress while it is judged and acked once its verdict is stored,
 * (its batch committed: verdicts of the same moment commit together, see
 * `batchingVerdictWriter`), so a worker killed mid-judgement or before a
 * batch committed leaves its cases to be delivered again
 * and judged by another worker (at-least-once calls, exactly-once records).
 * A message only names a case: the case judged is the one the store holds
 * under that key, and a name the store does not hold is acked and logged,
 * never judged, so forged messages add no verdict and the run still ends on
 * its stored cases. A run the store holds as cancelled has its cases in
 * flight cancelled, and none becomes a verdict; a cancel message only makes the worker look (at
 * once; without one, within `statusTtlMs`), so a forged one cancels nothing.
 *
 * @example
 * ```ts
 * const stop = new AbortController();
 * await runJudgeWorker({ store, queue, concurrency: 32, ackWaitMs: 30_000, name: 'w1', signal: stop.signal });
 * // { recorded: 1980, cached: 20, duplicate: 0, dropped: 0, unknown: 0, handedBack: 0 }
 * ```
 */
export async function runJudgeWorker(options: JudgeWorkerOptions): Promise<JudgeWorkerTally> {
  const tally = { recorded: 0, cached: 0, duplicate: 0, dropped: 0, unknown: 0, handedBack: 0 };
  const logger = options.logger ?? silentLogger();
  const emit = (event: JudgeWorkerEvent): void => options.onEvent?.(event);
  const pauses = createModelPauses({ queue: options.queue });
  // a server fault is retried until the server is back: a case is acked only once its verdict committed
  const store = patientJudgeStore(options.store, {
    what: 'the judge store',
    patienceMs: options.serverPatienceMs ?? defaultServerPatienceMs,
    signal: options.signal,
    onRetry: (error, attempt, delayMs) =>
      logger.warn({ err: error, attempt, delayMs }, 'the judge store did not answer'),
  });
  // the verdicts of the same moment commit in one transaction; a case is acked once its batch committed
  const verdicts = batchingVerdictWriter(store, {
    maxVerdicts: options.concurrency,
    ...options.verdictBatch,
  });
  // the store away past the patience, or a role the bus refuses pulls: the worker stops and says why
  let gaveUp: ArenaError | null = null;
  const runs = new RunCache(store);
  const judges = new Map<string, Promise<Judge>>();
  const judgeFor =
    options.judgeFor ??
    // the judge's code (its config schema, the model clients) is loaded with the first run's judge
    (async (run: EvaluationRunRecord) =>
      (await import('./storedJudge.js')).judgeOfEvaluationRun(run, {
        pauses,
        logger,
        maxConnections: options.concurrency,
        ...(options.env ? { env: options.env } : {}),
        ...(options.moduleRoots ? { moduleRoots: options.moduleRoots } : {}),
      }));
  // each run's judgements in flight, to cancel them when the run is cancelled
  const inFlight = new Map<string, Set<AbortController>>();
  // a cancel message is only a hint to look: the store's `cancelled` is what aborts anything
  const looking = new Set<string>();
  const abortIfCancelled = async (evaluationRunId: string, fresh: boolean): Promise<void> => {
    if (!inFlight.has(evaluationRunId) || looking.has(evaluationRunId)) return;
    looking.add(evaluationRunId);
    try {
      if (fresh) runs.forget(evaluationRunId);
      const run = await runs.get(evaluationRunId);
      // cancelled, failed, or ended by its sequential gate's decision: nothing in flight is wanted
      if (run === null || run.status === 'running') return;
      for (const controller of inFlight.get(evaluationRunId) ?? []) controller.abort();
    } catch (error) {
      logger.warn({ err: error, evaluationRunId }, 'could not read whether a run was cancelled');
    } finally {
      looking.delete(evaluationRunId);
    }
  };
  const offCancel = options.queue.onCancel((id) => {
    // its next case reads the run again too, in flight or not
    runs.forget(id);
    void abortIfCancelled(id, true);
  });
  // a cancel whose message never came (lost, or not allowed on the bus) is found in the store
  const cancelWatch = setInterval(() => {
    for (const id of inFlight.keys()) void abortIfCancelled(id, false);
  }, statusTtlMs);
  const active = new Set<Promise<void>>();
  // every case in hand (judged, or waiting for a slot) is kept in progress by one timer of the worker
  const inHand = new Map<QueuedCaseDelivery, number>();
  const keepAliveMs = Math.max(100, options.ackWaitMs / 3);
  const keepAlive = setInterval(() => {
    const now = Date.now();
    // a case taken less than a period ago needs no word yet: the next tick is within 2/3 of the ack wait
    for (const [delivery, takenAtMs] of inHand)
      if (now - takenAtMs >= keepAliveMs) delivery.working();
  }, keepAliveMs);
  const hints = throttledStatusHints((evaluationRunId) =>
    options.queue.announceStatus?.(evaluationRunId),
  );
  // one listener for the worker, not one per case: stopping aborts every judgement in flight
  const stopped = new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    options.signal.addEventListener(
      'abort',
      () => {
        for (const controllers of inFlight.values())
          for (const controller of [...controllers]) controller.abort();
        resolve();
      },
      { once: true },
    );
  });

  const handle = async (delivery: QueuedCaseDelivery): Promise<void> => {
    const { evaluationRunId, caseKey } = delivery.job;
    let run = await runs.get(evaluationRunId);
    const sequential = run !== null && isSequentialRun(run);
    // a sequential run may have decided a moment ago: its status is read afresh before each case
    if (sequential) {
      runs.forget(evaluationRunId);
      run = await runs.get(evaluationRunId);
    }
    if (run === null || run.status !== 'running') {
      await delivery.ack();
      tally.dropped++;
      emit({ type: 'dropped', evaluationRunId, caseId: caseIdOf(caseKey) });
      return;
    }
    // the case judged is the store's, never the message's copy
    const stored = await verdicts.storedCase(evaluationRunId, caseKey);
    if (stored === null) {
      await delivery.ack();
      tally.unknown++;
      logger.warn(
        { evaluationRunId, caseKey },
        'a case message names no case of its evaluation run: dropped, not judged',
      );
      emit({ type: 'unknownCase', evaluationRunId, caseKey });
      return;
    }
    const { context } = stored;
    let judge: Promise<Judge> | undefined = judges.get(evaluationRunId);
    if (judge === undefined) {
      judge = judgeFor(run);
      judges.set(evaluationRunId, judge);
    }
    const controller = new AbortController();
    const mine = inFlight.get(evaluationRunId) ?? new Set();
    inFlight.set(evaluationRunId, mine.add(controller));
    try {
      const outcome = await judgeCaseIntoStore(context, {
        store,
        evaluationRunId,
        judge: await judge,
        cache: run.cache,
        worker: options.name,
        signal: controller.signal,
        // only a redelivered case can have its verdict already, or one a resumed sequential run queued again
        mayHaveVerdict: sequential || delivery.deliveryCount > 1,
        verdicts,
      });
      // the verdict is committed: past the ack wait the case comes back anyway, and its redelivery finds it
      await withPatience(() => delivery.ack(), {
        what: 'the judge queue',
        patienceMs: options.ackWaitMs,
        signal: options.signal,
      }).catch((error: unknown) => {
        // no ack within an ack wait: the case comes back and its redelivery finds the verdict
        if (!isServerFailure(error)) throw error;
      });
      hints.touch(evaluationRunId);
      if (outcome.recording === 'recorded') tally[outcome.fromCache ? 'cached' : 'recorded']++;
      else if (outcome.recording === 'duplicate') tally.duplicate++;
      else tally.dropped++;
      emit({
        type: 'judged',
        evaluationRunId,
        caseId: context.caseId,
        recording: outcome.recording,
        fromCache: outcome.fromCache,
      });
    } catch (error) {
      if (error instanceof JudgeCancelledError && options.signal.aborted) {
        // the worker stops: another worker judges the case
        delivery.nak();
        tally.handedBack++;
      } else if (error instanceof JudgeCancelledError) {
        await delivery.ack();
        tally.dropped++;
        emit({ type: 'dropped', evaluationRunId, caseId: context.caseId });
      } else if (isServerFailure(error) || options.signal.aborted) {
        // a server fault, the store away past the patience, or stopped while waiting: no verdict,
        // not the run's fault; the case comes back once the server is
        try {
          delivery.nak(options.signal.aborted ? undefined : 1000);
        } catch {
          // the queue is away too: the case comes back after its ack wait
        }
        tally.handedBack++;
        if (error instanceof ServerUnavailableError) gaveUp ??= error;
        emit({ type: 'queueError', error });
      } else {
        // a bad config or case: judging it again anywhere fails the same way
        const reason = error instanceof Error ? error.message : String(error);
        logger.error({ err: error, evaluationRunId }, 'the evaluation run cannot be judged');
        // the case is acked only once its run is failed in the store: a run left running keeps its case
        await store.failEvaluationRun(evaluationRunId, reason);
        runs.forget(evaluationRunId);
        hints.touch(evaluationRunId);
        await delivery.ack();
        emit({ type: 'failed', evaluationRunId, error });
      }
    } finally {
      mine.delete(controller);
      if (mine.size === 0) inFlight.delete(evaluationRunId);
    }
  };

  const track = (delivery: QueuedCaseDelivery): void => {
    const work: Promise<void> = handle(delivery)
      .catch((error: unknown) => {
        // the store is away: the case comes back after the ack wait
        if (error instanceof ServerUnavailableError) gaveUp ??= error;
        emit({ type: 'queueError', error });
        logger.warn({ err: error }, 'a case could not be judged into the store');
        try {
          delivery.nak(1000);
        } catch {
          // the queue is away too: the case comes back after its ack wait
        }
      })
      .finally(() => {
        inHand.delete(delivery);
        active.delete(work);
        const next = waiting.shift();
        if (next !== undefined && !options.signal.aborted) track(next);
        else if (next !== undefined) {
          inHand.delete(next);
          next.nak();
          tally.handedBack++;
        }
      });
    active.add(work);
  };
  // cases received while every slot is busy: started as slots free up (a pull's worth at most)
  const waiting: QueuedCaseDelivery[] = [];

  // cases asked of the server and not yet received: a pull holds its slots until it ends
  let reserved = 0;
  const pulls = new Set<Promise<void>>();
  const pull = async (wanted: number): Promise<void> => {
    let received = 0;
    try {
      for await (const delivery of options.queue.take(wanted, 1000)) {
        received++;
        reserved--;
        if (!options.signal.aborted) inHand.set(delivery, Date.now());
        if (options.signal.aborted) delivery.nak();
        else if (active.size < options.concurrency) track(delivery);
        else waiting.push(delivery);
      }
    } catch (error) {
      if (options.signal.aborted) return;
      if (ArenaError.is(error, 'NATS_PERMISSION')) {
        gaveUp ??= error;
        return;
      }
      emit({ type: 'queueError', error });
      logger.warn({ err: error }, 'the judge queue did not answer');
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      reserved -= wanted - received;
    }
  };
  try {
    while (!options.signal.aborted && gaveUp === null) {
      // one batch beyond the slots is asked for ahead, so a freed slot never waits for a pull
      const batch = batchOf(options.concurrency);
      const free = options.concurrency + batch - active.size - waiting.length - reserved;
      if (free < batch) {
        await Promise.race([...active, ...pulls, stopped]);
        continue;
      }
      reserved += free;
      const pulling: Promise<void> = pull(free).finally(() => pulls.delete(pulling));
      pulls.add(pulling);
    }
    await Promise.allSettled([...pulls]);
    // stopping: what never started goes back to the queue at once
    for (const delivery of waiting.splice(0)) {
      inHand.delete(delivery);
      delivery.nak();
      tally.handedBack++;
    }
    await Promise.allSettled([...active]);
  } finally {
    clearInterval(keepAlive);
    hints.flush();
    clearInterval(cancelWatch);
    offCancel();
    pauses.dispose();
  }
  if (gaveUp !== null) throw gaveUp;
  return tally;
}

/** The case id inside a case key (`caseKeyOf`), or the key itself when it is not one. */
function caseIdOf(caseKey: string): string {
  try {
    const parts: unknown = JSON.parse(caseKey);
    if (Array.isArray(parts) && typeof parts[1] === 'string') return parts[1];
  } catch {
    // not a key arena made: told as it came
  }
  return caseKey;
}

/** Whether a run folds its verdicts into a sequential gate (`gates.sequential` in its config). */
function isSequentialRun(run: EvaluationRunRecord): boolean {
  const config = run.judgeConfig as { gates?: { sequential?: unknown } } | null;
  return config?.gates?.sequential !== undefined && config.gates.sequential !== null;
}

/** The fewest free slots a worker pulls for while judgements are in flight: half of them, so a pull brings several cases. */
const batchOf = (concurrency: number): number => Math.max(1, Math.ceil(concurrency / 2));

/**
 * Evaluation runs as a worker last read them, read again after `statusTtlMs`:
 * the cases in flight that ask at once share one read.
 */
class RunCache {
  private readonly runs = new Map<
    string,
    { run: Promise<EvaluationRunRecord | null>; readAtMs: number }
  >();
  constructor(private readonly store: JudgeStore) {}

  get(evaluationRunId: string): Promise<EvaluationRunRecord | null> {
    const known = this.runs.get(evaluationRunId);
    if (known !== undefined && Date.now() - known.readAtMs < statusTtlMs) return known.run;
    const run = this.store.getEvaluationRun(evaluationRunId).catch((error: unknown) => {
      if (error instanceof EvaluationRunNotFoundError) return null;
      // a failed read is not kept: the next case reads again
      if (this.runs.get(evaluationRunId)?.run === run) this.runs.delete(evaluationRunId);
      throw error;
    });
    this.runs.set(evaluationRunId, { run, readAtMs: Date.now() });
    return run;
  }

  forget(evaluationRunId: string): void {
    this.runs.delete(evaluationRunId);
  }
}
