import { createActor, type InspectionEvent, type Observer } from 'xstate';
import type { PhaseSpec, RunSpec } from '../config/runSpec.js';
import type { JsonObject, JsonValue } from '../domain/shared/json.js';
import type { MetaAgentInterface, MetaDecision } from '../machines/metaTurnTypes.js';
import type { ControllerEmitted, ControllerOutput } from '../machines/simulationControllerTypes.js';
import { type Logger, silentLogger } from '../ports/logger.js';
import { rewindToLatestSnapshot } from '../ports/rewindRun.js';
import type { RunStore, SnapshotRecord } from '../ports/store.js';
import { createStoreWriter, type StoreWriter } from '../ports/storeWriter.js';
import { buildPhaseWorld } from './components.js';
import { controllerInputFor, wireSimulationController } from './controllerActors.js';
import { logEvent, type RunEvent } from './runEvents.js';
import {
  type PhaseOutcomeStatus,
  type PhaseSummary,
  PhaseTracker,
  type RunSummary,
  totalReturn,
} from './runSummary.js';
import { terminationRulesOf } from './terminationRules.js';
import type { PhaseWorld } from './world.js';

export type { RunEvent } from './runEvents.js';
export type { PhaseOutcomeStatus, PhaseSummary, RunSummary } from './runSummary.js';
export { RunConfigError, terminationRulesOf } from './terminationRules.js';

export interface RunExperimentOptions {
  readonly store: RunStore;
  /** Built-in components (`arena:Name` -> class or factory). */
  readonly builtins: ReadonlyMap<string, unknown>;
  /** The run file's text, stored with the run. */
  readonly runFileText: string;
  readonly logger?: Logger;
  /** Aborting it cancels the run: the controller stops, the store is flushed. */
  readonly signal?: AbortSignal;
  /** Continue this stored run from its last episode barrier. */
  readonly resumeRunId?: string;
  /** XState's `inspect` option, passed to every actor of the run (e.g. the Stately inspector). */
  readonly inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  readonly onEvent?: (event: RunEvent) => void;
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
 * store. Resolves with the closing summary; a failed or cancelled run
 * resolves too (with that status), so the store is always left consistent.
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

  let runId: string;
  let resume: SnapshotRecord | null = null;
  if (options.resumeRunId !== undefined) {
    resume = rewindToLatestSnapshot(store, options.resumeRunId);
    runId = resume.runId;
  } else {
    runId = store.createRun({
      uid: spec.uid,
      seed: spec.seed,
      runFile: options.runFileText,
      runFilePath: spec.sourcePath,
    }).runId;
  }
  const writer = createStoreWriter(store, options.batching ?? { maxBatch: 256, maxDelayMs: 50 });
  const writeFailure = writer.error$.subscribe((error) =>
    logger.error({ err: error }, 'the run store failed to write a batch'),
  );
  emit({
    type: 'run.started',
    runId,
    uid: spec.uid,
    phases: spec.phases.map((phase) => phase.name),
    resumed: resume !== null,
  });

  const summaries: PhaseSummary[] = [];
  const firstPhase = resume?.phaseIndex ?? 0;
  let carried: Readonly<Record<string, JsonValue>> =
    (resume?.state as ResumeState | undefined)?.carried ?? {};
  let status: RunSummary['status'] = 'succeeded';
  let runError: string | null = null;
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
        logger: logger.child({ phase: phase.name }),
        options,
        emit,
      });
      summaries.push(outcome.summary);
      carried = outcome.carried;
      if (outcome.summary.status !== 'done') {
        status = outcome.summary.status === 'cancelled' ? 'cancelled' : 'failed';
        runError = outcome.summary.error;
        break;
      }
    }
  } catch (error) {
    status = 'failed';
    runError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    logger.error({ err: error }, 'the run failed');
  }
  const summary: RunSummary = {
    runId,
    uid: spec.uid,
    seed: spec.seed,
    status,
    error: runError,
    phases: summaries,
  };
  writer.write({
    kind: 'finishRun',
    runId,
    outcome: { status, error: runError, summary: summary as unknown as JsonValue },
  });
  writer.close();
  writeFailure.unsubscribe();
  emit({ type: 'run.finished', summary });
  return summary;
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
  readonly logger: Logger;
  readonly options: RunExperimentOptions;
  readonly emit: (event: RunEvent) => void;
}

const PAUSED = { simulating: { episodeBarrier: 'paused' } } as const;

async function runPhase(run: PhaseRun): Promise<{
  summary: PhaseSummary;
  carried: Readonly<Record<string, JsonValue>>;
}> {
  const { phase, runId, writer, emit, logger } = run;
  const resumingAtBarrier = run.resumeState?.kind === 'barrier';
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

  const tracker = new PhaseTracker(phase);
  let world: PhaseWorld | null = null;
  let output: ControllerOutput | null = null;
  let failure: string | null = null;
  try {
    world = await buildPhaseWorld(run.spec, phase, {
      builtins: run.options.builtins,
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
    if (run.resumeState?.kind === 'barrier') {
      const saved = run.resumeState;
      await world.setUp(saved.worldParams);
      if (input.script.metaAgent !== null && saved.metaAgentInterface !== null) {
        // the meta turn is not rerun on resume: its agent is set up from the saved decision
        await world.agent(input.script.metaAgent).setup(saved.metaAgentInterface);
      }
      world.loadState(saved.world);
    }
    output = await driveController(run, world, input, tracker, resumingAtBarrier);
  } catch (error) {
    failure = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    logger.error({ err: error }, 'the phase failed');
  }

  const carried =
    world !== null ? ((world.saveState().agents ?? {}) as Record<string, JsonValue>) : run.carried;
  if (world !== null) {
    try {
      await world.close();
    } catch (error) {
      logger.warn({ err: error }, 'an environment failed to close');
    }
  }
  const status: PhaseOutcomeStatus =
    failure !== null
      ? 'failed'
      : output?.status === 'stopped'
        ? 'done'
        : (output?.status ?? 'failed');
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
      status,
      terminationReason: reason,
      episodes: output?.ordinal ?? tracker.ordinal,
    },
  });
  writer.flush();
  emit({
    type: 'phase.finished',
    phaseIndex: phase.index,
    status,
    reason,
    episodes: output?.episodes ?? tracker.episodes,
  });
  return { summary: tracker.summary(status, reason, error), carried };
}

/**
 * Start (or restore) the controller actor, turn its emitted events into store
 * writes, persist a resume point at every barrier, and resolve with its output.
 */
function driveController(
  run: PhaseRun,
  world: PhaseWorld,
  input: Awaited<ReturnType<typeof controllerInputFor>>,
  tracker: PhaseTracker,
  resumingAtBarrier: boolean,
): Promise<ControllerOutput> {
  const { phase, runId, writer, emit } = run;
  const machine = wireSimulationController(world);
  const saved = run.resumeState?.kind === 'barrier' ? run.resumeState : null;
  const actor = createActor(machine, {
    input,
    ...(saved !== null ? { snapshot: saved.controller as never } : {}),
    ...(run.options.inspect !== undefined ? { inspect: run.options.inspect } : {}),
  });

  actor.on('*', (event: ControllerEmitted) => {
    switch (event.type) {
      case 'meta.decided': {
        const decision = event.decision.decision as MetaDecision;
        tracker.metaDecision = decision;
        writer.write({
          kind: 'metaDecision',
          record: {
            runId,
            phaseIndex: phase.index,
            startRequest: decision.startRequest,
            firstEpisode: tracker.ordinal + 1,
            environmentUid: decision.environmentUid,
            agentName: decision.agentName,
            record: decision as unknown as JsonValue,
          },
        });
        emit({ type: 'meta.decided', phaseIndex: phase.index, decision });
        return;
      }
      case 'episode.completed': {
        tracker.episode(event.summary);
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
        tracker.checkpoint(event.verdict);
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
        emit({ type: 'checkpoint.completed', phaseIndex: phase.index, verdict: event.verdict });
        return;
      }
      default:
        return;
    }
  });

  return new Promise<ControllerOutput>((resolve, reject) => {
    let persistedOrdinal = -1;
    const onAbort = () => actor.send({ type: 'cancel' });
    run.options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = () => run.options.signal?.removeEventListener('abort', onAbort);
    actor.subscribe({
      next: (snapshot) => {
        if (snapshot.status === 'done') {
          finish();
          resolve(snapshot.output as ControllerOutput);
          return;
        }
        if (snapshot.matches(PAUSED) && snapshot.context.ordinal !== persistedOrdinal) {
          persistedOrdinal = snapshot.context.ordinal;
          // Persist only here: a quiet point, no provider or episode promise in flight.
          // setImmediate, not a microtask: the event loop (Ctrl-C, timers) runs at every barrier.
          setImmediate(() => {
            const current = actor.getSnapshot();
            // Cancelled (or failed) meanwhile: nothing to persist, nothing to continue.
            if (current.status !== 'active' || !current.matches(PAUSED)) return;
            try {
              const state: BarrierState = {
                kind: 'barrier',
                controller: actor.getPersistedSnapshot() as unknown as JsonValue,
                world: world.saveState(),
                worldParams: snapshot.context.worldParams,
                metaAgentInterface: snapshot.context.metaDecision?.agentInterface ?? null,
                carried: run.carried,
              };
              // The barrier's records and its resume point commit in one transaction.
              writer.write({
                kind: 'snapshot',
                snapshot: {
                  runId,
                  phaseIndex: phase.index,
                  episode: snapshot.context.ordinal,
                  state: state as unknown as JsonValue,
                },
              });
              writer.flush();
              actor.send({ type: 'continue' });
            } catch (error) {
              finish();
              actor.stop();
              reject(error);
            }
          });
        }
      },
      error: (error) => {
        finish();
        reject(error);
      },
    });
    actor.start();
    if (run.options.signal?.aborted) actor.send({ type: 'cancel' });
    actor.send({ type: resumingAtBarrier ? 'continue' : 'start' });
  });
}
