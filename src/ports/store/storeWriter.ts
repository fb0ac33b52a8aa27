import { exhaustMap, type Observable, Subject, type Subscription, timer } from 'rxjs';
import type {
  CheckpointRecord,
  EpisodeRecord,
  Lease,
  MetaDecisionRecord,
  NewPhase,
  NewRemoteComponent,
  NewSnapshot,
  PhaseOutcome,
  RunOutcome,
  RunStore,
} from './store.js';
import { StoreWriteError, StoreWriterClosedError } from './storeErrors.js';

/** One write the runner hands to the writer, tagged by `kind`. */
export type StoreWriteCommand =
  | { readonly kind: 'startPhase'; readonly phase: NewPhase }
  | {
      readonly kind: 'finishPhase';
      readonly runId: string;
      readonly phaseIndex: number;
      readonly outcome: PhaseOutcome;
    }
  | { readonly kind: 'episode'; readonly record: EpisodeRecord }
  | { readonly kind: 'checkpoint'; readonly record: CheckpointRecord }
  | { readonly kind: 'metaDecision'; readonly record: MetaDecisionRecord }
  | { readonly kind: 'snapshot'; readonly snapshot: NewSnapshot }
  | { readonly kind: 'remoteComponent'; readonly record: NewRemoteComponent }
  | { readonly kind: 'finishRun'; readonly runId: string; readonly outcome: RunOutcome };

/** How a writer batches. */
export interface StoreWriterOptions {
  /** A batch is written as soon as it holds this many commands. */
  maxBatch: number;
  /** A command waits at most this long before its batch is written. */
  maxDelayMs: number;
  /**
   * The run's lease: every batch checks it is still held, in its own
   * transaction, so a runner that lost its lease writes nothing more.
   */
  lease?: Lease;
}

/** Batches writes to a run store; see `createStoreWriter`. */
export interface StoreWriter {
  /** Queue one write. Throws if the writer is closed or an earlier batch failed. */
  write(command: StoreWriteCommand): void;
  /**
   * Apply every queued write now, in one transaction, before returning. After
   * it returns the writes are committed (see `openSqliteStore` on durability).
   * Throws the `StoreWriteError` of a failed batch.
   */
  flush(): void;
  /** Flush, then stop: later writes throw `StoreWriterClosedError`. The store stays open. */
  close(): void;
  /** Commands queued and not yet written. */
  readonly pending: number;
  /** Emits the error of a batch that failed on its timer, then completes on close. */
  readonly error$: Observable<StoreWriteError>;
}

/**
 * A writer that batches commands for the store and applies each batch in ONE
 * transaction: when `maxBatch` commands are queued, when the oldest queued
 * command has waited `maxDelayMs`, or when `flush()` is called. At an episode
 * barrier the runner writes the barrier's snapshot as the last command and
 * flushes, so the snapshot and every record before it commit together; it
 * also flushes on exit and on Ctrl-C.
 *
 * A failed batch is rolled back whole and never swallowed: `flush()` throws
 * it, a timer-driven failure is emitted on `error$`, and from then on every
 * `write` and `flush` throws the same `StoreWriteError`, so a runner cannot go
 * on with records missing.
 *
 * @example
 * ```ts
 * const writer = createStoreWriter(store, { maxBatch: 256, maxDelayMs: 50 });
 * writer.write({ kind: 'episode', record });
 * writer.pending; // 1
 * writer.flush();
 * store.episodes(record.runId).length; // 1
 * ```
 */
export function createStoreWriter(store: RunStore, options: StoreWriterOptions): StoreWriter {
  let queue: StoreWriteCommand[] = [];
  let failure: StoreWriteError | null = null;
  let closed = false;
  const queued$ = new Subject<void>();
  const error$ = new Subject<StoreWriteError>();

  const applyQueued = (): void => {
    if (failure !== null) throw failure;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    try {
      store.transaction(() => {
        if (options.lease !== undefined) store.requireLease(options.lease);
        for (const command of batch) applyCommand(store, command);
      });
    } catch (cause) {
      failure = new StoreWriteError(batch.length, cause);
      throw failure;
    }
  };

  // The first command queued into an empty queue starts one timer; when it fires, all queued go.
  const timerSubscription: Subscription = queued$
    .pipe(exhaustMap(() => timer(options.maxDelayMs)))
    .subscribe(() => {
      try {
        applyQueued();
      } catch (error) {
        if (error instanceof StoreWriteError) error$.next(error);
      }
    });

  return {
    write(command) {
      if (closed) throw new StoreWriterClosedError();
      if (failure !== null) throw failure;
      queue.push(command);
      if (queue.length >= options.maxBatch) applyQueued();
      else queued$.next();
    },
    flush: applyQueued,
    close() {
      if (closed) return;
      try {
        applyQueued();
      } finally {
        closed = true;
        timerSubscription.unsubscribe();
        queued$.complete();
        error$.complete();
      }
    },
    get pending() {
      return queue.length;
    },
    error$: error$.asObservable(),
  };
}

function applyCommand(store: RunStore, command: StoreWriteCommand): void {
  switch (command.kind) {
    case 'startPhase':
      store.startPhase(command.phase);
      return;
    case 'finishPhase':
      store.finishPhase(command.runId, command.phaseIndex, command.outcome);
      return;
    case 'episode':
      store.recordEpisode(command.record);
      return;
    case 'checkpoint':
      store.recordCheckpoint(command.record);
      return;
    case 'metaDecision':
      store.recordMetaDecision(command.record);
      return;
    case 'snapshot':
      store.saveSnapshot(command.snapshot);
      return;
    case 'remoteComponent':
      store.recordRemoteComponent(command.record);
      return;
    case 'finishRun':
      store.finishRun(command.runId, command.outcome);
      return;
  }
}
