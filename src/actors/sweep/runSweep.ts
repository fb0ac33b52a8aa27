import { type Actor, createActor, type SnapshotFrom } from 'xstate';
import type { RunSpec } from '../../config/runSpec.js';
import type { JsonValue } from '../../domain/shared/json.js';
import { trialEvidence } from '../../domain/sweep/evidence.js';
import type { TrialEvidence, TrialProgress } from '../../domain/sweep/progress.js';
import type { SweepSpec } from '../../domain/sweep/types.js';
import {
  initialSweepProgress,
  type SweepContext,
  type SweepEmitted,
  type SweepEvent,
  sweepMachine,
} from '../../machines/sweep.js';
import type { RunQueue } from '../../ports/queue/runQueue.js';
import { statusPollMs, statusSafetyNetMs, statusWake } from '../../ports/queue/statusHints.js';
import { type Logger, silentLogger } from '../../ports/runtime/logger.js';
import { withPatience } from '../../ports/runtime/serverFailure.js';
import { processLeaseOwner } from '../../ports/store/leaseOwner.js';
import type { LeaseOwner, NewRun, RunStore, SweepStatus } from '../../ports/store/store.js';
import { newRunOf } from '../experiment/newRun.js';
import type { RunEvent } from '../experiment/runEvents.js';
import { type RunExperimentOptions, runExperiment } from '../experiment/runExperiment.js';

/** One trial as the runner needs it: what it varies and its run file, parsed. */
export interface SweepTrialFile {
  readonly parameters: SweepContext['trials'][number]['parameters'];
  /** The trial's run file text (the base run file with its parameters set). */
  readonly text: string;
  readonly spec: RunSpec;
}

/** What `runSweep` works with. */
export interface RunSweepOptions
  extends Pick<RunExperimentOptions, 'store' | 'builtins' | 'components' | 'logger' | 'inspect'> {
  /** Trials run at once in this process (default 1). */
  readonly parallel?: number;
  /** Aborting hands every running trial back (resumable as `{ kind: 'resume' }`) and stops. */
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: SweepRunEvent) => void;
  /**
   * Run the trials on the fleet instead (`arena sweep --nats`): each trial is
   * queued for `arena worker`s, which hold it at its rung as the store says;
   * the sweep reads a trial from the store when its worker tells (the queue's
   * status hints) and every trial every `pollMs` besides (default 5 s with
   * a queue that tells, else 250 ms), for trials held or ended, and queues
   * the released ones again.
   */
  readonly queue?: RunQueue;
  readonly pollMs?: number;
  /** On the fleet, how long a store that stopped answering (a restart) is waited for (default 5 min), then `ServerUnavailableError`. */
  readonly patienceMs?: number;
}

/** What the runner tells as it goes: for progress and logs. */
export type SweepRunEvent =
  | {
      readonly type: 'sweep.started';
      readonly sweepId: string;
      readonly trials: number;
      readonly resumed: boolean;
    }
  | { readonly type: 'trial.held'; readonly index: number; readonly checkpoints: number }
  | {
      readonly type: 'trial.ended';
      readonly index: number;
      readonly status: 'completed' | 'failed';
    }
  | SweepEmitted;

/** A sweep as it stands when `runSweep` resolves. */
export interface SweepOutcome {
  readonly sweepId: string;
  readonly status: SweepStatus;
  readonly progress: SweepContext;
}

/** The new sweep to record, or the stored one to go on with. */
export type SweepStart =
  | {
      readonly kind: 'new';
      readonly spec: SweepSpec;
      readonly sweepFile: string;
      readonly sweepFilePath: string;
      readonly trials: readonly SweepTrialFile[];
    }
  | {
      readonly kind: 'resume';
      readonly sweepId: string;
      readonly spec: SweepSpec;
      readonly trials: readonly SweepTrialFile[];
    };

/** What the store persists of a sweep: the machine's snapshot. */
interface StoredSweepState {
  readonly machine: JsonValue;
  /** Who runs the sweep now; `null` once it was stopped (Ctrl-C) to be resumed. */
  readonly runner: LeaseOwner | null;
}

/**
 * Run a sweep: every trial as an ordinary run of the store (created queued,
 * with the sweep, in one transaction), at most `parallel` at once, each
 * holding at its rung until the sweep machine decides the rung. The machine's
 * snapshot, the pruned trials' runs and the released trials' next holds are
 * written in one transaction at every event, so a sweep killed at any moment
 * resumes (`{ kind: 'resume' }`) to the same decisions: its trials' records
 * are the truth, and a trial's run resumes exactly as any run does.
 *
 * @example
 * ```ts
 * const outcome = await runSweep({ kind: 'new', spec, sweepFile, sweepFilePath, trials }, { store, builtins });
 * outcome.progress.trials.map((trial) => trial.status); // ['completed', 'pruned', …]
 * ```
 */
export async function runSweep(start: SweepStart, options: RunSweepOptions): Promise<SweepOutcome> {
  const { store } = options;
  const logger = options.logger ?? silentLogger();
  const emit = (event: SweepRunEvent): void => options.onEvent?.(event);
  const { spec, trials } = start;
  const runner = processLeaseOwner();
  const begun =
    start.kind === 'new'
      ? createSweep(
          start,
          store,
          await Promise.all(trials.map((trial) => newRunOf(trial.spec, trial.text))),
          runner,
        )
      : loadSweep(start.sweepId, store);
  const { sweepId } = begun;
  const actor = createActor(sweepMachine, {
    input: begun.progress,
    ...(options.inspect !== undefined ? { inspect: options.inspect } : {}),
    ...(begun.snapshot !== null ? { snapshot: begun.snapshot as never } : {}),
  });
  const fault = { error: null as unknown };
  actor.subscribe({ error: (error) => (fault.error ??= error) });

  // which trials run next: released by a decision, or found runnable at a resume
  const runnable: number[] = [];
  const emittedNow: SweepEmitted[] = [];
  for (const type of ['trial.released', 'trial.pruned', 'rung.decided'] as const) {
    actor.on(type, (event) => {
      emittedNow.push(event);
      emit(event);
    });
  }
  actor.start();

  /** Send an event; returns how to persist its consequences in one transaction (safe to repeat). */
  const send = (event: Parameters<typeof actor.send>[0]): (() => void) => {
    emittedNow.length = 0;
    actor.send(event);
    const emitted = [...emittedNow];
    const snapshot = actor.getSnapshot();
    const status = statusOf(snapshot);
    const state = stateOf(actor, runner);
    const runIdOf = (index: number): string => snapshot.context.trials[index]?.runId as string;
    for (const each of emitted) {
      if (each.type === 'trial.released') runnable.push(each.index);
    }
    return () =>
      store.transaction(() => {
        for (const each of emitted) {
          if (each.type === 'trial.pruned') {
            const runId = runIdOf(each.index);
            const rung = spec.pruner.rungs[each.rungIndex];
            store.holdTrial(runId, null);
            store.finishRun(runId, {
              status: 'cancelled',
              error: `pruned at rung ${each.rungIndex + 1} (${rung} evaluation checkpoints) of sweep ${sweepId}`,
            });
          } else if (each.type === 'trial.released') {
            store.holdTrial(runIdOf(each.index), each.holdAt);
          }
        }
        store.saveSweep(sweepId, { status, state });
      });
  };
  /** Send an event, then persist its consequences in one transaction. */
  const step = (event: Parameters<typeof actor.send>[0]): void => send(event)();

  emit({ type: 'sweep.started', sweepId, trials: trials.length, resumed: start.kind === 'resume' });
  // what the records say about every trial the machine still waits for (all of them, when new)
  for (const trial of actor.getSnapshot().context.trials) {
    if (trial.status !== 'running' && trial.status !== 'held') continue;
    const runId = trial.runId as string;
    const run = store.getRun(runId);
    if (run.status === 'succeeded' || run.status === 'failed') {
      step(endedEvent(trial.index, run.status, run.error, evidenceOf(store, runId, spec)));
    } else if (trial.status === 'running') {
      const holdAt = store.trialOfRun(runId)?.holdAt ?? null;
      const evidence = evidenceOf(store, runId, spec);
      const lease = run.lease === null || Date.parse(run.lease.expiresAt) < Date.now();
      if (holdAt !== null && evidence.checkpoints >= holdAt && run.status === 'running' && lease) {
        step({ type: 'trial.held', index: trial.index, evidence });
      } else {
        runnable.push(trial.index);
      }
    }
  }

  if (options.queue !== undefined) {
    await sweepOnFleet(options.queue, {
      actor,
      runnable,
      send,
      store,
      spec,
      signal: options.signal,
      pollMs:
        options.pollMs ?? (options.queue.onStatus !== undefined ? statusSafetyNetMs : statusPollMs),
      patienceMs: options.patienceMs,
      logger,
      emit,
    });
    actor.stop();
    const ended = actor.getSnapshot();
    stopped(store, sweepId, actor);
    return { sweepId, status: statusOf(ended), progress: ended.context };
  }
  const parallel = Math.max(1, options.parallel ?? 1);
  const running = new Set<Promise<void>>();
  const runTrial = async (index: number): Promise<void> => {
    const trial = actor.getSnapshot().context.trials[index];
    const file = trials[index];
    if (trial === undefined || file === undefined || trial.runId === null) return;
    let held = false;
    const onEvent = (event: RunEvent): void => {
      if (event.type === 'run.held') held = true;
    };
    const summary = await runExperiment(file.spec, {
      store,
      builtins: options.builtins,
      ...(options.components !== undefined ? { components: options.components } : {}),
      resumeRunId: trial.runId,
      ...(options.signal !== undefined ? { handBack: options.signal } : {}),
      ...(options.inspect !== undefined ? { inspect: options.inspect } : {}),
      logger: logger.child({ trial: index }),
      onEvent,
    });
    if (options.signal?.aborted === true && !held) return;
    const evidence = evidenceOf(store, trial.runId, spec);
    if (held) {
      emit({ type: 'trial.held', index, checkpoints: evidence.checkpoints });
      step({ type: 'trial.held', index, evidence });
      return;
    }
    const status = summary.status === 'succeeded' ? 'completed' : 'failed';
    emit({ type: 'trial.ended', index, status });
    step(
      endedEvent(
        index,
        summary.status === 'succeeded' ? 'succeeded' : 'failed',
        summary.error ?? null,
        evidence,
      ),
    );
  };

  while (actor.getSnapshot().status === 'active' && options.signal?.aborted !== true) {
    while (running.size < parallel && runnable.length > 0) {
      const index = runnable.shift() as number;
      const work: Promise<void> = runTrial(index)
        .catch((error: unknown) => {
          fault.error ??= error;
        })
        .finally(() => running.delete(work));
      running.add(work);
    }
    if (fault.error !== null) break;
    if (running.size === 0) break;
    await Promise.race(running);
  }
  await Promise.allSettled([...running]);
  actor.stop();
  if (fault.error !== null) {
    const reason =
      fault.error instanceof Error
        ? `${fault.error.name}: ${fault.error.message}`
        : String(fault.error);
    logger.error({ err: fault.error }, 'the sweep failed');
    store.saveSweep(sweepId, { status: 'failed', state: stateOf(actor, runner), error: reason });
    throw fault.error;
  }
  const snapshot = actor.getSnapshot();
  stopped(store, sweepId, actor);
  return { sweepId, status: statusOf(snapshot), progress: snapshot.context };
}

/** A sweep that stops unfinished (its signal aborted) is stored as nobody's: `arena show` calls it interrupted. */
function stopped(store: RunStore, sweepId: string, actor: Actor<typeof sweepMachine>): void {
  const status = statusOf(actor.getSnapshot());
  if (status === 'running') store.saveSweep(sweepId, { status, state: stateOf(actor, null) });
}

function statusOf(snapshot: SnapshotFrom<typeof sweepMachine>): SweepStatus {
  if (snapshot.status !== 'done') return 'running';
  return snapshot.value === 'cancelled' ? 'cancelled' : 'succeeded';
}

/** What the fleet loop works with: the machine, its next trials, how to step it, where the trials live. */
interface FleetSweep {
  readonly actor: Actor<typeof sweepMachine>;
  readonly runnable: number[];
  /** Send an event; the returned call persists it (repeatable). */
  readonly send: (event: SweepEvent) => () => void;
  readonly store: RunStore;
  readonly spec: SweepSpec;
  readonly signal: AbortSignal | undefined;
  readonly pollMs: number;
  readonly patienceMs: number | undefined;
  readonly logger: Logger;
  readonly emit: (event: SweepRunEvent) => void;
}

/**
 * Queue each released trial for the workers (a message id per rung, so a
 * trial queued again past its rung is not a duplicate), then read the store
 * until every trial held at its rung or ended: a run back without a lease at
 * its hold is held; one that succeeded or failed ended; one cancelled by
 * anything but this sweep failed.
 */
async function sweepOnFleet(queue: RunQueue, fleet: FleetSweep): Promise<void> {
  const { actor, runnable, send, store, spec } = fleet;
  // the store may restart under the sweep (the workers wait it out too): reads and writes are retried
  const patiently = <T>(work: () => T): Promise<T> =>
    withPatience(work, {
      what: 'the run store',
      ...(fleet.patienceMs !== undefined ? { patienceMs: fleet.patienceMs } : {}),
      ...(fleet.signal !== undefined ? { signal: fleet.signal } : {}),
      onRetry: (error) =>
        fleet.logger.warn(
          { err: error },
          'the run store did not answer; the sweep waits for it and goes on',
        ),
    });
  /** What the records say of a running trial now: the event to send, or `null`. */
  const observe = (
    trial: TrialProgress,
  ): ReturnType<typeof endedEvent> | Extract<SweepEvent, { type: 'trial.held' }> | null => {
    const runId = trial.runId as string;
    const run = store.getRun(runId);
    // queued, or leased by a worker: neither held nor ended, and its evidence is not read
    if (run.status === 'queued' || (run.status === 'running' && run.lease !== null)) return null;
    const evidence = evidenceOf(store, runId, spec);
    if (run.status === 'succeeded' || run.status === 'failed' || run.status === 'cancelled') {
      const status = run.status === 'succeeded' ? 'succeeded' : 'failed';
      return endedEvent(trial.index, status, run.error ?? run.status, evidence);
    }
    const holdAt = store.trialOfRun(runId)?.holdAt ?? null;
    const held = run.status === 'running' && holdAt !== null && evidence.checkpoints >= holdAt;
    return held ? { type: 'trial.held', index: trial.index, evidence } : null;
  };
  // a worker's hint names the trial to read now; every trial is read each `pollMs` besides
  const wake = statusWake();
  const told = new Set<string>();
  const stopListening = actor.getSnapshot().context.trials.flatMap((trial) =>
    trial.runId === null || queue.onStatus === undefined
      ? []
      : [
          queue.onStatus(trial.runId, () => {
            told.add(trial.runId as string);
            wake.hear();
          }),
        ],
  );
  let readAllAt = Number.NEGATIVE_INFINITY;
  try {
    while (actor.getSnapshot().status === 'active' && fleet.signal?.aborted !== true) {
      for (const index of runnable.splice(0)) {
        const trial = actor.getSnapshot().context.trials[index];
        if (trial?.runId == null) continue;
        await queue.submit(trial.runId, { messageId: `${trial.runId}.rung-${trial.rungIndex}` });
      }
      wake.reading();
      const readAll = stopListening.length === 0 || Date.now() - readAllAt >= fleet.pollMs;
      if (readAll) readAllAt = Date.now();
      for (const trial of actor.getSnapshot().context.trials) {
        if (trial.status !== 'running' || trial.runId === null) continue;
        if (!told.delete(trial.runId) && !readAll) continue;
        const event = await patiently(() => observe(trial));
        if (event === null) continue;
        if (event.type === 'trial.held') {
          fleet.emit({
            type: 'trial.held',
            index: trial.index,
            checkpoints: event.evidence.checkpoints,
          });
        } else {
          fleet.emit({ type: 'trial.ended', index: trial.index, status: event.status });
        }
        // sent once; only its persisting is repeated through a restart
        await patiently(send(event));
      }
      if (actor.getSnapshot().status !== 'active') break;
      // a hint heard while reading ends the pause at once (none is missed); one of a trial not running is moot
      const running = actor
        .getSnapshot()
        .context.trials.filter((each) => each.status === 'running');
      for (const runId of told) {
        if (!running.some((each) => each.runId === runId)) told.delete(runId);
      }
      // released trials are queued at once
      if (told.size > 0 || runnable.length > 0) wake.hear();
      await wake.pause(Math.max(0, readAllAt + fleet.pollMs - Date.now()), fleet.signal);
    }
  } finally {
    for (const stop of stopListening) stop();
  }
}

function stateOf(actor: Actor<typeof sweepMachine>, runner: LeaseOwner | null): JsonValue {
  return {
    machine: actor.getPersistedSnapshot() as unknown as JsonValue,
    runner,
  } satisfies StoredSweepState as unknown as JsonValue;
}

function evidenceOf(store: RunStore, runId: string, spec: SweepSpec): TrialEvidence {
  return trialEvidence(store.checkpoints(runId), spec.pruner, spec.objectives);
}

function endedEvent(
  index: number,
  runStatus: 'succeeded' | 'failed',
  error: string | null,
  evidence: TrialEvidence,
) {
  return {
    type: 'trial.ended' as const,
    index,
    status: runStatus === 'succeeded' ? ('completed' as const) : ('failed' as const),
    evidence,
    error: runStatus === 'succeeded' ? null : error,
  };
}

/** Record the sweep and every trial's run (queued, holding at the first rung) in one transaction. */
function createSweep(
  start: Extract<SweepStart, { kind: 'new' }>,
  store: RunStore,
  runs: readonly NewRun[],
  runner: LeaseOwner,
): { sweepId: string; snapshot: null; progress: SweepContext } {
  const { spec } = start;
  const firstHold = spec.pruner.rungs[0] ?? null;
  return store.transaction(() => {
    const blank = initialSweepProgress(
      spec,
      start.trials.map((trial) => trial.parameters),
    );
    const sweep = store.createSweep({
      uid: spec.uid,
      sweepFile: start.sweepFile,
      sweepFilePath: start.sweepFilePath,
      state: { machine: null },
    });
    const trials = blank.trials.map((trial, index) => {
      const run = store.createRun({ ...(runs[index] as NewRun), status: 'queued' });
      store.recordTrial({
        sweepId: sweep.sweepId,
        trialIndex: index,
        runId: run.runId,
        parameters: trial.parameters as unknown as JsonValue,
        holdAt: firstHold,
      });
      return { ...trial, runId: run.runId, status: 'running' as const };
    });
    const progress = { ...blank, trials };
    const actor = createActor(sweepMachine, { input: progress });
    store.saveSweep(sweep.sweepId, { status: 'running', state: stateOf(actor, runner) });
    return { sweepId: sweep.sweepId, snapshot: null, progress };
  });
}

function loadSweep(
  sweepId: string,
  store: RunStore,
): { sweepId: string; snapshot: unknown; progress: SweepContext } {
  const record = store.getSweep(sweepId);
  const snapshot = (record.state as unknown as StoredSweepState).machine;
  return {
    sweepId,
    snapshot,
    progress: (snapshot as unknown as { context: SweepContext }).context,
  };
}
