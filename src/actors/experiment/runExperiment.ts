import { createActor, type InspectionEvent, type Observer } from 'xstate';
import type { PhaseSpec, RunSpec } from '../../config/runSpec.js';
import { terminationRulesOf } from '../../config/terminationRules.js';
import type { JsonObject, JsonValue } from '../../domain/shared/json.js';
import type { MetaAgentInterface, MetaDecision } from '../../machines/metaTurnTypes.js';
import type {
  ControllerEmitted,
  ControllerOutput,
} from '../../machines/simulationControllerTypes.js';
import type { RemoteComponentHost, ServedComponent } from '../../ports/remote/remoteComponent.js';
import { RemoteComponentUnavailableError } from '../../ports/remote/remoteComponent.js';
import { type Logger, silentLogger } from '../../ports/runtime/logger.js';
import { isServerFailure } from '../../ports/runtime/serverFailure.js';
import {
  defaultLeaseTtlMs,
  holderProcessIsGone,
  processLeaseOwner,
} from '../../ports/store/leaseOwner.js';
import { rewindToLatestSnapshot } from '../../ports/store/rewindRun.js';
import type {
  Lease,
  LeaseHolder,
  LeaseOwner,
  RunStore,
  SnapshotRecord,
} from '../../ports/store/store.js';
import { LeaseLostError, NothingToResumeError } from '../../ports/store/storeErrors.js';
import { createStoreWriter, type StoreWriter } from '../../ports/store/storeWriter.js';
import { buildPhaseWorld } from './components.js';
import { controllerInputFor, wireSimulationController } from './controllerActors.js';
import { changedModules, ModulesChangedError } from './moduleChanges.js';
import { newRunOf } from './newRun.js';
import { logEvent, type RunEvent } from './runEvents.js';
import { RunInterruptedError } from './runInterrupted.js';
import {
  type PhaseOutcomeStatus,
  type RunSummary,
  summarizeStoredPhase,
  summarizeStoredRun,
  totalReturn,
} from './runSummary.js';
import type { PhaseWorld } from './world.js';

/**
 * How `runExperiment` runs a run file: the store, the components it may name, and what to watch.
 */
export interface RunExperimentOptions {
  readonly store: RunStore;
  /** Built-in components (`arena:Name` -> class or factory): `builtinComponents` for arena's own. */
  readonly builtins: ReadonlyMap<string, unknown>;
  /**
   * Components written in the host app, named `code:Name` in the run file:
   * `{ Cart }` for `name: code:Cart` (a class or a factory, as modules export).
   */
  readonly components?: Readonly<Record<string, unknown>>;
  /**
   * Makes the run's `nats:<service>` components (see `connectRemoteComponents`);
   * a run file that names one fails its phase without it.
   */
  readonly remoteComponents?: RemoteComponentHost;
  /** The run file's text, stored with the run; default: the text `parseRunFile` read (`spec.sourceText`). */
  readonly runFileText?: string;
  readonly logger?: Logger;
  /** Aborting it cancels the run: the controller stops, the store is flushed. */
  readonly signal?: AbortSignal;
  /**
   * Aborting it stops the run like `signal`, but hands it back instead of
   * cancelling it: the run is rewound to its last barrier, left `running`
   * without a lease, and resolves with status `cancelled`; any runner may
   * resume it exactly (what `arena worker` does on SIGTERM).
   */
  readonly handBack?: AbortSignal;
  /** Continue this stored run from its last episode barrier, or start it when it is `queued`. */
  readonly resumeRunId?: string;
  /** Resume although a user module changed since the run started (the resume records that it was forced). */
  readonly force?: boolean;
  /** Who runs the run; defaults to this process. */
  readonly owner?: LeaseOwner;
  /** How long the run's lease lasts without a heartbeat (renewed every third of it); default 15 s. */
  readonly leaseTtlMs?: number;
  /**
   * Whether another owner's unexpired lease may be taken over; default: when
   * its process is gone from this host (`holderProcessIsGone`).
   */
  readonly takeOverLease?: (holder: LeaseHolder) => boolean;
  /** XState's `inspect` option, passed to every actor of the run (e.g. the Stately inspector). */
  readonly inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  readonly onEvent?: (event: RunEvent) => void;
  /**
   * Hand the run back (as `handBack` does) at the first episode barrier where
   * it has this many evaluation checkpoints (all phases counted), and emit
   * `run.held`: where a sweep's trial waits for its rung's decision. Default:
   * the hold the store records for the run's trial (`trialOfRun`), so a trial
   * holds at its rung on whichever worker runs it; `null` holds nowhere.
   */
  readonly holdAt?: number | null;
  /** Store batching; defaults to 256 writes or 50 ms. */
  readonly batching?: { readonly maxBatch: number; readonly maxDelayMs: number };
}

/** What a resume point holds. */
interface BarrierState {
  readonly kind: 'barrier';
  readonly controller: JsonValue;
  readonly world: JsonObject;
  readonly worldParams: Readonly<Record<string, JsonObject>>;
  readonly metaAgentInterface: MetaAgentInterface | null;
  readonly carried: Readonly<Record<string, JsonValue>>;
}

interface PhaseStartState {
  readonly kind: 'phase-start';
  readonly carried: Readonly<Record<string, JsonValue>>;
}

type ResumeState = BarrierState | PhaseStartState;

/**
 * Run a run file's schedule, phase by phase, recording everything in the
 * store. Resolves with the closing summary, read back from the store so that
 * it covers the whole run however often it was resumed; a failed or cancelled
 * run resolves too (with that status), so the store is always left consistent.
 *
 * The runner holds the run's lease (renewed by a heartbeat) while it works:
 * a second runner of the same run is refused with `RunLeasedError`, and a
 * runner that lost its lease stops with `LeaseLostError`, writing nothing more.
 *
 * @example
 * ```ts
 * const spec = await loadRunFile('examples/hosting-capacity.yaml');
 * const summary = await runExperiment(spec, { store, builtins: builtinComponents, runFileText });
 * summary.phases[0].reason; // 'success'
 * ```
 */
export async function runExperiment(
  spec: RunSpec,
  options: RunExperimentOptions,
): Promise<RunSummary> {
  const rules = terminationRulesOf(spec);
  const logger = options.logger ?? silentLogger();
  const { store } = options;
  const emit = (event: RunEvent) => {
    logEvent(logger, event);
    options.onEvent?.(event);
  };
  const ttlMs = options.leaseTtlMs ?? defaultLeaseTtlMs;
  const claim =
    options.resumeRunId !== undefined
      ? await claimForResume(options, options.resumeRunId, ttlMs)
      : await createLeasedRun(spec, options, ttlMs);
  const { runId, lease, resume, resumed } = claim;

  // The lease is renewed while the run works; losing it cancels the run, and the writer is fenced.
  const stop = new AbortController();
  let leaseLost: LeaseLostError | null = null;
  const heartbeat = setInterval(() => {
    try {
      store.renewLease(lease, ttlMs);
    } catch (error) {
      // the server away: renewed at the next beat once it is back (a lapsed lease fences the writes)
      if (isServerFailure(error) && !(error instanceof LeaseLostError)) {
        logger.warn({ err: error }, 'the run could not renew its lease');
        return;
      }
      leaseLost =
        error instanceof LeaseLostError ? error : new LeaseLostError(runId, null, { cause: error });
      logger.error({ err: error }, 'the run lost its lease');
      stop.abort();
    }
  }, ttlMs / 3);
  // a sweep's trial holds at its rung: handed back at the barrier where it has that many checkpoints
  const hold = {
    at: options.holdAt !== undefined ? options.holdAt : (store.trialOfRun(runId)?.holdAt ?? null),
    checkpoints: store.checkpoints(runId).length,
    reached: new AbortController(),
  };
  const signal = AbortSignal.any(
    [options.signal, options.handBack, stop.signal, hold.reached.signal].filter(
      (each): each is AbortSignal => each !== undefined,
    ),
  );

  const writer = createStoreWriter(store, {
    ...(options.batching ?? { maxBatch: 256, maxDelayMs: 50 }),
    lease,
  });
  const writeFailure = writer.error$.subscribe((error) =>
    logger.error({ err: error }, 'the run store failed to write a batch'),
  );
  emit({
    type: 'run.started',
    runId,
    uid: spec.uid,
    phases: spec.phases.map((phase) => phase.name),
    resumed,
  });

  const firstPhase = resume?.phaseIndex ?? 0;
  let carried: Readonly<Record<string, JsonValue>> =
    (resume?.state as ResumeState | undefined)?.carried ?? {};
  let status: RunSummary['status'] = 'succeeded';
  let runError: string | null = null;
  let serviceGone = false;
  let serverFault: unknown = null;
  try {
    for (const phase of spec.phases.slice(firstPhase)) {
      const resumeState =
        resume !== null && resume.phaseIndex === phase.index
          ? (resume.state as unknown as ResumeState)
          : null;
      const outcome = await runPhase({
        spec,
        phase,
        runId,
        rules,
        carried,
        resumeState,
        writer,
        store,
        signal,
        logger: logger.child({ phase: phase.name }),
        options,
        emit,
        hold,
      });
      carried = outcome.carried;
      if (outcome.status !== 'done') {
        status = outcome.status === 'cancelled' ? 'cancelled' : 'failed';
        runError = outcome.error;
        serviceGone = outcome.serviceGone;
        break;
      }
    }
  } catch (error) {
    if (isServerFailure(error)) serverFault = error;
    status = 'failed';
    runError = describeError(error);
    if (serverFault === null) logger.error({ err: error }, 'the run failed');
  } finally {
    clearInterval(heartbeat);
  }
  if (serverFault !== null) {
    // the store's server went away: the run is not failed; it resumes from its last barrier
    writeFailure.unsubscribe();
    throw serverFault;
  }
  if (leaseLost !== null) {
    writeFailure.unsubscribe();
    throw leaseLost;
  }
  writer.close();
  writeFailure.unsubscribe();
  const summary = summarizeStoredRun(store, runId, { status, error: runError });
  const held = status === 'cancelled' && hold.reached.signal.aborted;
  const handedBack = status === 'cancelled' && (options.handBack?.aborted === true || held);
  if (handedBack || serviceGone) {
    // handed back or interrupted, not ended: back to its last barrier and unleased, in one transaction
    store.transaction(() => {
      store.requireLease(lease);
      rewindToLatestSnapshot(store, runId);
      store.releaseLease(lease);
    });
    if (serviceGone) throw new RunInterruptedError(runId, runError ?? 'a remote component is gone');
    if (held) emit({ type: 'run.held', runId, checkpoints: hold.checkpoints });
    emit({ type: 'run.finished', summary });
    return summary;
  }
  // the run's outcome and the lease's release commit together: a finished run is never left leased
  store.transaction(() => {
    store.requireLease(lease);
    store.finishRun(runId, { status, error: runError, summary: summary as unknown as JsonValue });
    store.releaseLease(lease);
  });
  emit({ type: 'run.finished', summary });
  return summary;
}

interface RunClaim {
  readonly runId: string;
  readonly lease: Lease;
  /** The resume point a resumed run starts from; `null` from its first phase. */
  readonly resume: SnapshotRecord | null;
  readonly resumed: boolean;
}

/** Record a new run, with its run file's and user modules' hashes, and take its lease, in one transaction. */
async function createLeasedRun(
  spec: RunSpec,
  options: RunExperimentOptions,
  ttlMs: number,
): Promise<RunClaim> {
  const run = await newRunOf(spec, options.runFileText);
  const owner = options.owner ?? processLeaseOwner();
  const { store } = options;
  return store.transaction(() => {
    const { runId } = store.createRun(run);
    return {
      runId,
      lease: store.acquireLease(runId, { owner, ttlMs }),
      resume: null,
      resumed: false,
    };
  });
}

/**
 * Take a stored run's lease (refused while another live process holds it),
 * check that its user modules are the ones it started with, and rewind it to
 * its latest resume point, recording the resume: the rewind and the record
 * commit together, under the lease.
 */
async function claimForResume(
  options: RunExperimentOptions,
  runId: string,
  ttlMs: number,
): Promise<RunClaim> {
  const { store } = options;
  const record = store.getRun(runId);
  if (record.status === 'succeeded') throw new NothingToResumeError(runId, 'it already succeeded');
  const owner = options.owner ?? processLeaseOwner();
  const lease = store.acquireLease(runId, {
    owner,
    ttlMs,
    takeOver: options.takeOverLease ?? holderProcessIsGone,
  });
  try {
    const changed = await changedModules(record.modules ?? []);
    if (changed.length > 0 && options.force !== true) {
      throw new ModulesChangedError(runId, changed);
    }
    if (record.status === 'queued') {
      // a submitted run a worker starts: a start, not a resume (`rewindToStart` turns it running)
      store.transaction(() => {
        store.requireLease(lease);
        store.rewindToStart(runId);
      });
      return { runId, lease, resume: null, resumed: false };
    }
    const resume = store.transaction(() => {
      store.requireLease(lease);
      const snapshot = rewindToLatestSnapshot(store, runId);
      store.recordResume({
        runId,
        owner: owner.id,
        phaseIndex: snapshot?.phaseIndex ?? 0,
        episode: snapshot?.episode ?? 0,
        forced: changed.length > 0,
        changedModules: changed,
      });
      return snapshot;
    });
    return { runId, lease, resume, resumed: true };
  } catch (error) {
    store.releaseLease(lease);
    throw error;
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

interface PhaseRun {
  readonly spec: RunSpec;
  readonly phase: PhaseSpec;
  readonly runId: string;
  readonly rules: JsonObject | null;
  readonly carried: Readonly<Record<string, JsonValue>>;
  readonly resumeState: ResumeState | null;
  readonly writer: StoreWriter;
  readonly store: RunStore;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly options: RunExperimentOptions;
  readonly emit: (event: RunEvent) => void;
  /** Where the run holds (`at` checkpoints), its checkpoints so far, and what to abort once it does. */
  readonly hold: RunHold;
}

interface RunHold {
  readonly at: number | null;
  checkpoints: number;
  readonly reached: AbortController;
}

interface PhaseResult {
  readonly status: PhaseOutcomeStatus;
  readonly error: string | null;
  /** It failed because a remote component's service stopped answering: the run is interrupted, not failed. */
  readonly serviceGone: boolean;
  /** The agents' learning state the next phase starts from. */
  readonly carried: Readonly<Record<string, JsonValue>>;
}

const PAUSED = { simulating: { episodeBarrier: 'paused' } } as const;

async function runPhase(run: PhaseRun): Promise<PhaseResult> {
  const { phase, runId, writer, emit, logger } = run;
  const saved = run.resumeState?.kind === 'barrier' ? run.resumeState : null;
  if (run.resumeState === null) {
    writer.write({
      kind: 'startPhase',
      phase: { runId, phaseIndex: phase.index, name: phase.name, mode: phase.phaseConfig.mode },
    });
    writer.write({
      kind: 'snapshot',
      snapshot: {
        runId,
        phaseIndex: phase.index,
        episode: 0,
        state: { kind: 'phase-start', carried: run.carried } as unknown as JsonValue,
      },
    });
    writer.flush();
  }
  emit({
    type: 'phase.started',
    phaseIndex: phase.index,
    name: phase.name,
    mode: phase.phaseConfig.mode,
    episodes: phase.phaseConfig.episodes,
  });

  const progress = { ordinal: restoredOrdinal(saved) };
  let world: PhaseWorld | null = null;
  let output: ControllerOutput | null = null;
  let failure: string | null = null;
  let failedWith: string | null = null;
  let serverFault: unknown = null;
  try {
    world = await buildPhaseWorld(run.spec, phase, {
      builtins: run.options.builtins,
      ...(run.options.components !== undefined ? { components: run.options.components } : {}),
      ...(run.options.remoteComponents !== undefined
        ? {
            remote: {
              host: run.options.remoteComponents,
              runId: run.runId,
              // the instance serving each component goes in with the next batch of the run's records
              onServed: (served: ServedComponent) =>
                writer.write({
                  kind: 'remoteComponent',
                  record: { runId, phaseIndex: phase.index, ...served },
                }),
            },
          }
        : {}),
      logger,
    });
    for (const [name, state] of Object.entries(run.carried)) {
      if (phase.agents.some((agent) => agent.name === name)) world.agent(name).carryState(state);
    }
    const input = await controllerInputFor(world, {
      phase: {
        name: phase.name,
        index: phase.index,
        mode: phase.phaseConfig.mode,
        episodes: phase.phaseConfig.episodes,
        evaluateEvery: phase.phaseConfig.evaluateEvery,
        maxSteps: phase.phaseConfig.maxSteps,
      },
      environmentConfigurations: Object.fromEntries(
        phase.environments.map((environment) => [environment.uid, environment.params]),
      ),
      termination: run.rules,
      pauseAtBarrier: true,
      requestedAt: new Date().toISOString(),
      environmentUids: phase.environments.map((environment) => environment.uid),
    });
    if (saved !== null) {
      await world.setUp(saved.worldParams);
      if (input.script.metaAgent !== null && saved.metaAgentInterface !== null) {
        // the meta turn is not rerun on resume: its agent is set up from the saved decision
        await world.agent(input.script.metaAgent).setup(saved.metaAgentInterface);
      }
      world.loadState(saved.world);
    }
    output = await driveController(run, world, input, progress);
  } catch (error) {
    // the store's server went away: not the phase's fault; the run goes on from its last barrier
    if (isServerFailure(error)) serverFault = error;
    failure = describeError(error);
    failedWith = error instanceof Error ? error.name : null;
    logger.error({ err: error }, 'the phase failed');
  }

  const status: PhaseOutcomeStatus =
    failure !== null
      ? 'failed'
      : output?.status === 'stopped'
        ? 'done'
        : (output?.status ?? 'failed');
  let carried = run.carried;
  if (world !== null) {
    // Only a finished phase hands its learning state on; saving a failed world would hide why it failed.
    if (status === 'done') {
      try {
        carried = (world.saveState().agents ?? {}) as Record<string, JsonValue>;
      } catch (error) {
        failure = describeError(error);
        logger.error({ err: error }, 'the phase could not save its state');
      }
    }
    try {
      await world.close();
    } catch (error) {
      logger.warn({ err: error }, 'an environment failed to close');
    }
  }
  if (serverFault !== null) throw serverFault;
  const finalStatus: PhaseOutcomeStatus = failure !== null ? 'failed' : status;
  const reason = failure !== null ? 'failed' : (output?.reason ?? null);
  const error =
    failure ??
    (output?.error
      ? `${output.error.name}: ${output.error.message} (at ${output.error.step})`
      : null);
  writer.write({
    kind: 'finishPhase',
    runId,
    phaseIndex: phase.index,
    outcome: {
      status: finalStatus,
      terminationReason: reason,
      episodes: output?.ordinal ?? progress.ordinal,
      error,
    },
  });
  writer.flush();
  emit({
    type: 'phase.finished',
    phaseIndex: phase.index,
    status: finalStatus,
    reason,
    episodes: summarizeStoredPhase(
      run.store,
      run.store.phases(runId).find((record) => record.phaseIndex === phase.index)!,
    ).episodes,
  });
  const serviceGone =
    finalStatus === 'failed' &&
    (failedWith ?? output?.error?.name ?? null) === RemoteComponentUnavailableError.name;
  return { status: finalStatus, error, carried, serviceGone };
}

/** The controller's episode ordinal in a saved barrier, or 0 at a phase's start. */
function restoredOrdinal(saved: BarrierState | null): number {
  const snapshot = saved?.controller as { context?: { ordinal?: number } } | undefined;
  return snapshot?.context?.ordinal ?? 0;
}

/**
 * Start (or restore) the controller actor, turn its emitted events into store
 * writes, persist a resume point at every barrier, and resolve with its output.
 */
function driveController(
  run: PhaseRun,
  world: PhaseWorld,
  input: Awaited<ReturnType<typeof controllerInputFor>>,
  progress: { ordinal: number },
): Promise<ControllerOutput> {
  const { phase, runId, writer, emit } = run;
  const machine = wireSimulationController(world);
  const saved = run.resumeState?.kind === 'barrier' ? run.resumeState : null;
  const actor = createActor(machine, {
    input,
    ...(saved !== null ? { snapshot: saved.controller as never } : {}),
    ...(run.options.inspect !== undefined ? { inspect: run.options.inspect } : {}),
  });

  const record = (event: ControllerEmitted): void => {
    switch (event.type) {
      case 'meta.decided': {
        const decision = event.decision.decision as MetaDecision;
        writer.write({
          kind: 'metaDecision',
          record: {
            runId,
            phaseIndex: phase.index,
            startRequest: decision.startRequest,
            firstEpisode: progress.ordinal + 1,
            environmentUid: decision.environmentUid,
            agentName: decision.agentName,
            record: decision as unknown as JsonValue,
          },
        });
        emit({ type: 'meta.decided', phaseIndex: phase.index, decision });
        return;
      }
      case 'episode.completed': {
        progress.ordinal = event.summary.ordinal;
        writer.write({
          kind: 'episode',
          record: {
            runId,
            phaseIndex: phase.index,
            episode: event.summary.ordinal,
            mode: event.summary.mode,
            evaluation: event.summary.evaluation,
            episodeReturn: totalReturn(event.summary),
            steps: event.summary.steps,
            returnsByAgent: event.summary.returnsByAgent as JsonValue,
            doneReason: event.summary.environmentDone ? 'environment_done' : 'max_steps',
          },
        });
        emit({ type: 'episode.completed', phaseIndex: phase.index, summary: event.summary });
        return;
      }
      case 'checkpoint.completed': {
        writer.write({
          kind: 'checkpoint',
          record: {
            runId,
            phaseIndex: phase.index,
            checkpointIndex: event.verdict.index,
            afterEpisode: event.verdict.afterEpisode,
            outcomes: event.verdict.outcomes as unknown as JsonValue,
            status: event.verdict.status === 'pending' ? 'ignored' : event.verdict.status,
            decision: (event.verdict.decision ?? {}) as JsonValue,
            error: event.verdict.error as JsonValue,
          },
        });
        run.hold.checkpoints++;
        emit({ type: 'checkpoint.completed', phaseIndex: phase.index, verdict: event.verdict });
        return;
      }
      default:
        return;
    }
  };

  return new Promise<ControllerOutput>((resolve, reject) => {
    // A restored run stands at the barrier it was restored from: that resume point is already stored.
    let persistedOrdinal = saved !== null ? progress.ordinal : -1;
    const onAbort = () => actor.send({ type: 'cancel' });
    run.signal.addEventListener('abort', onAbort, { once: true });
    const finish = () => run.signal.removeEventListener('abort', onAbort);
    const fail = (error: unknown) => {
      finish();
      actor.stop();
      reject(error);
    };
    // A record the store cannot take (disk full, a lost lease) ends the phase as failed, not the process.
    actor.on('*', (event: ControllerEmitted) => {
      try {
        record(event);
      } catch (error) {
        fail(error);
      }
    });
    const persistBarrier = (ordinal: number) => {
      const current = actor.getSnapshot();
      // Cancelled, failed or already past this barrier meanwhile: nothing to persist, nothing to continue.
      if (
        current.status !== 'active' ||
        !current.matches(PAUSED) ||
        current.context.ordinal !== ordinal
      ) {
        return;
      }
      try {
        const state: BarrierState = {
          kind: 'barrier',
          controller: actor.getPersistedSnapshot() as unknown as JsonValue,
          world: world.saveState(),
          worldParams: current.context.worldParams,
          metaAgentInterface: current.context.metaDecision?.agentInterface ?? null,
          carried: run.carried,
        };
        // The barrier's records and its resume point commit in one transaction.
        writer.write({
          kind: 'snapshot',
          snapshot: {
            runId,
            phaseIndex: phase.index,
            episode: ordinal,
            state: state as unknown as JsonValue,
          },
        });
        writer.flush();
        const { hold } = run;
        // the barrier is stored: a held run resumes from it exactly, as if it never stopped
        if (hold.at !== null && hold.checkpoints >= hold.at) hold.reached.abort();
        else actor.send({ type: 'continue' });
      } catch (error) {
        fail(error);
      }
    };
    actor.subscribe({
      next: (snapshot) => {
        if (snapshot.status === 'done') {
          finish();
          resolve(snapshot.output as ControllerOutput);
          return;
        }
        if (snapshot.matches(PAUSED) && snapshot.context.ordinal !== persistedOrdinal) {
          const ordinal = snapshot.context.ordinal;
          persistedOrdinal = ordinal;
          // Persist only here: a quiet point, no provider or episode promise in flight.
          // setImmediate, not a microtask: the event loop (Ctrl-C, timers) runs at every barrier.
          setImmediate(() => persistBarrier(ordinal));
        }
      },
      error: (error) => {
        finish();
        reject(error);
      },
    });
    actor.start();
    const { hold } = run;
    // restored at a barrier it holds at (killed before it was handed back): it holds there, not one episode on
    if (saved !== null && hold.at !== null && hold.checkpoints >= hold.at) hold.reached.abort();
    else if (run.signal.aborted) actor.send({ type: 'cancel' });
    else actor.send({ type: saved !== null ? 'continue' : 'start' });
  });
}
