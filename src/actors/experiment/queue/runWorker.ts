import { userModuleFiles } from '../../../config/moduleFingerprints.js';
import { requireAllowedModules } from '../../../config/moduleRoots.js';
import { parseRunFile } from '../../../config/runFile.js';
import { sha256Hex } from '../../../domain/shared/canonicalJson.js';
import { ArenaError } from '../../../domain/shared/errors.js';
import type { RunDelivery, RunQueue } from '../../../ports/queue/runQueue.js';
import { throttledStatusHints } from '../../../ports/queue/statusHints.js';
import type { RemoteComponentHost } from '../../../ports/remote/remoteComponent.js';
import { type Logger, silentLogger } from '../../../ports/runtime/logger.js';
import {
  defaultServerPatienceMs,
  ServerUnavailableError,
  withPatience,
} from '../../../ports/runtime/serverFailure.js';
import { defaultLeaseTtlMs, processLeaseOwner } from '../../../ports/store/leaseOwner.js';
import type { LeaseOwner, RunRecord, RunStatus, RunStore } from '../../../ports/store/store.js';
import { NothingToResumeError, RunNotFoundError } from '../../../ports/store/storeErrors.js';
import type { RunEvent } from '../runEvents.js';
import { runExperiment } from '../runExperiment.js';
import type { RunSummary } from '../runSummary.js';
import { claimRunDelivery, type DeliveryClaim, workerDiedReason } from './deliveryClaim.js';
import {
  classifyDeliveryFailure,
  type DeliveryFailure,
  missingModulesOf,
  StoredRunFileError,
} from './deliveryFailure.js';
import { failUndeliverableRun } from './failUndeliverableRun.js';
import { defaultMaxDeliveries } from './maxDeliveries.js';

/** What a worker tells about each delivery it handles. */
export type WorkerEvent =
  | { readonly type: 'taken'; readonly runId: string; readonly deliveryCount: number }
  | { readonly type: 'ended'; readonly runId: string; readonly summary: RunSummary }
  | { readonly type: 'handedBack'; readonly runId: string }
  /** A sweep's trial reached its rung: held at that barrier (acked) until the sweep queues it again. */
  | { readonly type: 'held'; readonly runId: string; readonly checkpoints: number }
  /**
   * Given back for later: leased by a live runner elsewhere, or not runnable
   * here now. `maxDeliveries` is set when the cause is permanent: the run
   * fails at that delivery; `null` for a transient cause (tried for ever).
   */
  | {
      readonly type: 'deferred';
      readonly runId: string;
      readonly reason: string;
      readonly deliveryCount: number;
      readonly maxDeliveries: number | null;
    }
  /** Marked failed and acked: a permanent cause, still there at the last delivery allowed. */
  | {
      readonly type: 'failed';
      readonly runId: string;
      readonly deliveries: number;
      readonly reason: string;
    }
  /** Acked without running: the run had already ended (a duplicate delivery). */
  | { readonly type: 'dropped'; readonly runId: string; readonly status: RunStatus }
  | { readonly type: 'queueError'; readonly error: unknown };

/** What `runRunWorker` works with: the store and queue it shares with `submitRun`, and how. */
export interface RunWorkerOptions {
  readonly store: RunStore;
  readonly queue: RunQueue;
  /** Built-in components, as for `runExperiment`. */
  readonly builtins: ReadonlyMap<string, unknown>;
  /** The worker's name: its runs' lease owner shows it (`running on W`). */
  readonly name: string;
  /** How many runs it works on at once; default 1. */
  readonly concurrency?: number;
  /** Each run's lease lifetime without a heartbeat; default 15 s. */
  readonly leaseTtlMs?: number;
  /**
   * A run that cannot run for a permanent cause (a missing module, a stored
   * run file that no longer loads, an unexpected error) is failed at this
   * delivery, and deferred before it; one whose workers died while running
   * it, after this many such deliveries. Deliveries are counted in the
   * store (`claimDelivery`); default `defaultMaxDeliveries`.
   */
  readonly maxDeliveries?: number;
  /** The queue's ack wait: each delivery is kept in progress three times per it. */
  readonly ackWaitMs: number;
  /** Aborting it stops taking runs and hands the running ones back at their last barrier. */
  readonly signal: AbortSignal;
  readonly logger?: Logger;
  readonly onEvent?: (event: WorkerEvent) => void;
  /** Each run's events, as `runExperiment` emits them. */
  readonly onRunEvent?: (event: RunEvent) => void;
  /** Where runs find their `nats:<service>` components, as for `runExperiment`. */
  readonly remoteComponents?: RemoteComponentHost;
  /**
   * The folders a run's modules (`./path.js:Export`) may be imported from,
   * checked by real path before anything is imported; a run naming one
   * elsewhere fails at its first delivery with `ModuleNotAllowedError`.
   * Without it any module is imported (`arena worker` passes its working
   * folder and its `--modules` folders).
   */
  readonly moduleRoots?: readonly string[];
  /**
   * How long a lost store server is waited for (the run in hand resumes from
   * its last barrier once it is back) before the worker gives up with
   * `ServerUnavailableError`; default `defaultServerPatienceMs`.
   */
  readonly serverPatienceMs?: number;
}

/** What a worker did, when it stopped. */
export interface WorkerTally {
  readonly ended: number;
  readonly handedBack: number;
  readonly deferred: number;
  readonly dropped: number;
  /** Runs failed for a permanent cause after `maxDeliveries` deliveries. */
  readonly failed: number;
}

export { defaultMaxDeliveries };

/** A run that has ended needs no work: a delivery of it is acked and dropped. */
const endedStatuses: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];

/**
 * Take runs off a queue and run them until `signal` aborts: a `queued` run
 * is started, one started before (a redelivery after a worker died or handed
 * it back) is resumed from its last barrier, which is exact by construction.
 * Each run holds its store lease; its delivery is kept in progress while it
 * works and acked once it ended. A run leased by a live runner elsewhere is
 * given back with a delay; a delivery of a run that already ended is acked
 * and dropped, so a duplicate delivery is one execution. A run that cannot
 * run for a permanent cause (see `classifyDeliveryFailure`) is given back
 * until its `maxDeliveries`-th delivery, then marked failed and acked.
 *
 * @example
 * ```ts
 * const stop = new AbortController();
 * process.once('SIGTERM', () => stop.abort());
 * await runRunWorker({ store, queue, builtins: builtinComponents, name: 'w1', ackWaitMs, signal: stop.signal });
 * // { ended: 3, handedBack: 1, deferred: 0, dropped: 0, failed: 0 }
 * ```
 */
export async function runRunWorker(options: RunWorkerOptions): Promise<WorkerTally> {
  const tally = { ended: 0, handedBack: 0, deferred: 0, dropped: 0, failed: 0 };
  const logger = options.logger ?? silentLogger();
  const emit = (event: WorkerEvent) => options.onEvent?.(event);
  // the run's followers (arena submit --wait, a sweep at its rung) read the store when told
  const hints = throttledStatusHints((runId) => options.queue.announceStatus?.(runId));
  const worker: WorkerContext = {
    options,
    logger,
    emit,
    ttlMs: options.leaseTtlMs ?? defaultLeaseTtlMs,
    moved: hints.touch,
  };
  const slots = Array.from({ length: Math.max(1, options.concurrency ?? 1) }, async () => {
    while (!options.signal.aborted) {
      let delivery: RunDelivery | null;
      try {
        delivery = await options.queue.next({ waitMs: 1000 });
      } catch (error) {
        // a role that may not take runs: no wait cures it, the worker stops and says why
        if (ArenaError.is(error, 'NATS_PERMISSION')) throw error;
        // the server is away (a restart): wait and ask again, the runs in hand go on
        if (options.signal.aborted) break;
        emit({ type: 'queueError', error });
        logger.warn({ err: error }, 'the run queue did not answer');
        await sleep(500);
        continue;
      }
      if (delivery === null) continue;
      if (options.signal.aborted) {
        delivery.nak();
        break;
      }
      const outcome = await handleDelivery(delivery, worker).finally(() =>
        // ended, held, handed back or failed: told at once, after its lease and ack
        hints.now(delivery.runId),
      );
      tally[outcome] += 1;
    }
  });
  await Promise.all(slots).finally(hints.flush);
  return tally;
}

type DeliveryOutcome = keyof WorkerTally;

/** What every delivery of one worker is handled with. */
interface WorkerContext {
  readonly options: RunWorkerOptions;
  readonly logger: Logger;
  readonly emit: (event: WorkerEvent) => void;
  /** Each run's lease lifetime without a heartbeat. */
  readonly ttlMs: number;
  /** Tell the run's followers it moved (throttled). */
  readonly moved: (runId: string) => void;
}

async function handleDelivery(
  delivery: RunDelivery,
  worker: WorkerContext,
): Promise<DeliveryOutcome> {
  const { options, logger, emit, ttlMs } = worker;
  const { runId } = delivery;
  // the store's server away: wait for it (a run in hand resumes from its last barrier), never fail for it
  const patience = {
    what: 'the run store',
    patienceMs: options.serverPatienceMs ?? defaultServerPatienceMs,
    signal: options.signal,
    onRetry: (error: unknown, attempt: number, delayMs: number) =>
      logger.warn({ err: error, runId, attempt, delayMs }, 'the run store did not answer'),
  };
  /** Stopped, or the store away past the patience, before the run was taken: the delivery goes back. */
  const handBack = (error: unknown): 'handedBack' => {
    if (!options.signal.aborted && !(error instanceof ServerUnavailableError)) throw error;
    delivery.nak();
    if (error instanceof ServerUnavailableError) throw error;
    emit({ type: 'handedBack', runId });
    return 'handedBack';
  };
  let record: RunRecord;
  try {
    record = await withPatience(() => options.store.getRun(runId), patience);
  } catch (error) {
    if (!(error instanceof RunNotFoundError)) return handBack(error);
    // a worker on another store: leave it to a worker of the store it was submitted to
    return defer(
      delivery,
      delivery.deliveryCount,
      ttlMs,
      { kind: 'transient', reason: `not in this worker's store` },
      null,
      emit,
    );
  }
  if (endedStatuses.includes(record.status)) {
    await ackOrWarn(delivery, logger);
    emit({ type: 'dropped', runId, status: record.status });
    return 'dropped';
  }
  const maxDeliveries = options.maxDeliveries ?? defaultMaxDeliveries;
  let claim: DeliveryClaim;
  try {
    // a claim the server took but never confirmed is counted again: one delivery more toward the bound, no more
    claim = await withPatience(
      () => claimRunDelivery(options.store, runId, workerLeaseOwner(options.name), maxDeliveries),
      patience,
    );
  } catch (error) {
    return handBack(error);
  }
  if (claim.kind === 'workerDied') {
    const died = { kind: 'permanent', reason: workerDiedReason } as const;
    const runError = `gave up after ${claim.deliveries} deliveries (${workerDiedReason})`;
    return giveUp(delivery, claim.deliveries, died, runError, worker);
  }
  const deliveryCount = claim.delivery;
  emit({ type: 'taken', runId, deliveryCount });
  const keepInProgress = setInterval(() => delivery.working(), options.ackWaitMs / 3);
  // a sweep's trial held at its rung: its checkpoints then
  let held: number | null = null;
  try {
    const spec = storedSpec(record);
    if (options.moduleRoots !== undefined) {
      await requireAllowedModules(userModuleFiles(spec), options.moduleRoots);
    }
    const summary = await withPatience(
      () =>
        runExperiment(spec, {
          store: options.store,
          builtins: options.builtins,
          runFileText: record.runFile,
          logger: logger.child({ runId }),
          handBack: options.signal,
          leaseTtlMs: ttlMs,
          resumeRunId: runId,
          owner: workerLeaseOwner(options.name),
          ...(options.remoteComponents !== undefined
            ? { remoteComponents: options.remoteComponents }
            : {}),
          onEvent: (event) => {
            if (event.type === 'run.held') held = event.checkpoints;
            if (movesRun(event)) worker.moved(runId);
            options.onRunEvent?.(event);
          },
        }),
      patience,
    );
    if (options.signal.aborted && summary.status === 'cancelled') {
      delivery.nak();
      emit({ type: 'handedBack', runId });
      return 'handedBack';
    }
    await ackOrWarn(delivery, logger);
    if (held !== null) emit({ type: 'held', runId, checkpoints: held });
    else emit({ type: 'ended', runId, summary });
    return 'ended';
  } catch (error) {
    if (
      error instanceof ServerUnavailableError ||
      (options.signal.aborted && error === options.signal.reason)
    ) {
      // past the patience (the worker exits), or stopped while the store was away: the run is not failed
      delivery.nak();
      if (error instanceof ServerUnavailableError) throw error;
      emit({ type: 'handedBack', runId });
      return 'handedBack';
    }
    if (error instanceof NothingToResumeError) {
      await ackOrWarn(delivery, logger);
      emit({ type: 'dropped', runId, status: 'succeeded' });
      return 'dropped';
    }
    const cause = await missingModulesOf(error);
    const failure = classifyDeliveryFailure(cause);
    if (failure.kind === 'transient') {
      // leased elsewhere, a service away, a run of another store: try again after a lease length
      return defer(delivery, deliveryCount, ttlMs, failure, null, emit);
    }
    // an arena error says all in the deferred or failed line; an unexpected one needs its stack
    const level = ArenaError.is(cause) ? 'debug' : 'error';
    logger[level]({ err: cause, deliveryCount }, 'the run could not be run');
    // below the bound the cause may be this worker's own glitch: another delivery may find it gone
    if (failure.kind === 'permanent' && deliveryCount < maxDeliveries) {
      return defer(delivery, deliveryCount, ttlMs, failure, maxDeliveries, emit);
    }
    const runError =
      failure.kind === 'refused'
        ? failure.reason
        : `${failure.reason}; gave up after ${deliveryCount} deliveries`;
    return giveUp(delivery, deliveryCount, failure, runError, worker);
  } finally {
    clearInterval(keepInProgress);
    // this worker ended the delivery itself: only a delivery whose worker died stays unsettled
    settleOrWarn(options.store, runId, deliveryCount, logger);
  }
}

/** What a run's follower sees move: its phases, episodes and checkpoints (a sweep's evidence). */
function movesRun(event: RunEvent): boolean {
  return (
    event.type === 'run.started' ||
    event.type === 'phase.started' ||
    event.type === 'episode.completed' ||
    event.type === 'checkpoint.completed' ||
    event.type === 'phase.finished'
  );
}

/** Fail a run with a permanent cause at its last delivery allowed, and ack it for good. */
async function giveUp(
  delivery: RunDelivery,
  deliveryCount: number,
  failure: DeliveryFailure,
  runError: string,
  { options, logger, emit, ttlMs }: WorkerContext,
): Promise<DeliveryOutcome> {
  const { runId } = delivery;
  let status: RunStatus;
  try {
    status = failUndeliverableRun(options.store, runId, {
      owner: workerLeaseOwner(options.name),
      ttlMs,
      error: runError,
    });
  } catch (error) {
    // leased by a live runner meanwhile, or the store is away: nothing was written, try again later
    logger.error({ err: error }, 'the run could not be marked failed');
    return defer(delivery, deliveryCount, ttlMs, classifyDeliveryFailure(error), null, emit);
  }
  await ackOrWarn(delivery, logger);
  if (status !== 'failed') {
    emit({ type: 'dropped', runId, status });
    return 'dropped';
  }
  emit({ type: 'failed', runId, deliveries: deliveryCount, reason: failure.reason });
  return 'failed';
}

function defer(
  delivery: RunDelivery,
  deliveryCount: number,
  delayMs: number,
  failure: DeliveryFailure,
  maxDeliveries: number | null,
  emit: (event: WorkerEvent) => void,
): DeliveryOutcome {
  delivery.nak(delayMs);
  emit({
    type: 'deferred',
    runId: delivery.runId,
    reason: failure.reason,
    deliveryCount,
    maxDeliveries,
  });
  return 'deferred';
}

function settleOrWarn(store: RunStore, runId: string, delivery: number, logger: Logger): void {
  try {
    store.settleDelivery(runId, delivery);
  } catch (error) {
    // the next delivery takes this one for a worker that died: it counts toward the bound, no more
    logger.warn({ err: error, runId }, 'the store did not record the end of the delivery');
  }
}

async function ackOrWarn(delivery: RunDelivery, logger: Logger): Promise<void> {
  try {
    await delivery.ack();
  } catch (error) {
    // harmless: the run comes back, sees that it ended, and is dropped
    logger.warn({ err: error, runId: delivery.runId }, 'the queue did not confirm the ack');
  }
}

/**
 * A run's lease owner when a worker runs it: unique per run, named after the worker.
 *
 * @example
 * ```ts
 * workerLeaseOwner('w1'); // { id: 'w1 (pid 4242 on lab-1 (3fa2c1))', host: 'lab-1', pid: 4242, worker: 'w1' }
 * ```
 */
export function workerLeaseOwner(name: string): LeaseOwner {
  const processOwner = processLeaseOwner();
  return { ...processOwner, id: `${name} (${processOwner.id})`, worker: name };
}

function storedSpec(record: RunRecord) {
  if (record.runFileSha256 !== null && sha256Hex(record.runFile) !== record.runFileSha256) {
    throw new StoredRunFileError(
      record.runId,
      'does not match its recorded sha256: the store was changed by hand',
    );
  }
  try {
    // components resolve against the run file's folder (stored as an absolute path), wherever the worker runs
    return parseRunFile(record.runFile, { sourcePath: record.runFilePath });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoredRunFileError(record.runId, `no longer loads: ${reason}`, { cause: error });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
