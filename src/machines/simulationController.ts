import { assign, emit, enqueueActions, sendTo, setup } from 'xstate';
import { ArenaError } from '../domain/shared/errors.js';
import type { TerminationAgentsInput } from '../domain/termination/config.js';
import { errorData, unwiredActor } from './actorErrors.js';
import { evaluationTerminationMachine } from './evaluationTermination.js';
import { metaTurnMachine } from './metaTurn.js';
import type { MetaTurnOutput } from './metaTurnTypes.js';
import type {
  CheckpointOutcome,
  CheckpointVerdict,
  CompletedEpisode,
  ControllerContext,
  ControllerEmitted,
  ControllerEvent,
  ControllerInput,
  ControllerOutput,
  EpisodeInput,
  EvaluationInput,
  SerializedError,
  SetUpWorldInput,
  SetUpWorldOutput,
} from './simulationControllerTypes.js';
import { terminationEvents } from './terminationEvents.js';

/**
 * The scripted simulation controller: one worker's run of one phase.
 *
 * idle -> simulating (starting -> metaTurn? -> settingUp -> running ->
 * episodeBarrier -> restarting -> running ...) -> stopped | failed | cancelled.
 * With the opt-in repeated meta loop (`every`), a due barrier goes to
 * closingWorld -> metaTurn -> settingUp instead of restarting.
 *
 * The machine holds only plain JSON; the live environments and agents are
 * reached through the actors it invokes, which `wireSimulationController(world)`
 * (in `actors/experiment/controllerActors.ts`) supplies with `machine.provide({ actors })`. The evaluation
 * termination machine is spawned as the child `termination`: checkpoints and
 * episode ends go to it with `sendTo`, and its emitted `flow` and checkpoint
 * events come back through an RxJS observable (`terminationEvents`).
 */

/**
 * An actor the controller invokes was used without being provided.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'CONTROLLER_WIRING'); // true when `error` is a ControllerWiringError
 * error instanceof ControllerWiringError && error.name; // 'ControllerWiringError'
 * ```
 */
export class ControllerWiringError extends ArenaError {
  constructor(actor: string) {
    super(
      'CONTROLLER_WIRING',
      `the controller's "${actor}" actor reaches the live world; create the controller with ` +
        'createSimulationController() or provide it with machine.provide({ actors })',
    );
  }
}

const unwired = <TOutput, TInput>(name: string) =>
  unwiredActor<TOutput, TInput>(name, (actor) => new ControllerWiringError(actor));

function serialize(error: unknown, step: string): SerializedError {
  return { ...errorData(error), step };
}

function episodeInput(context: ControllerContext, evaluation: boolean): EpisodeInput {
  return {
    phase: context.phase.name,
    episode: evaluation ? context.episodes : context.episodes + 1,
    mode: context.phase.mode,
    evaluation,
    maxSteps: context.phase.maxSteps,
  };
}

/** Whether this barrier reruns the meta turn: the opt-in loop, every `metaEvery` training episodes. */
function metaDecisionDue(context: ControllerContext): boolean {
  const every = context.script.metaEvery ?? null;
  return (
    context.script.profile === 'meta' &&
    every !== null &&
    context.episodes > 0 &&
    context.episodes % every === 0
  );
}

/**
 * What a world is set up with. Under `learning: reset` a repeated decision
 * whose candidate differs from the last one restores the first learning state
 * (a new world to learn); a decision that keeps the candidate keeps learning.
 */
function setUpWorldInput(context: ControllerContext): SetUpWorldInput {
  const resetting =
    context.script.profile === 'meta' &&
    (context.script.metaEvery ?? null) !== null &&
    context.script.metaLearning === 'reset';
  const operating = context.script.operatingAgent;
  const initial = context.initialLearning ?? null;
  const changed =
    (context.metaDecision?.decision?.toRevision ?? null) !== (context.previousRevision ?? null);
  return {
    params: context.worldParams,
    restoreLearning: resetting && initial !== null && changed ? initial : {},
    captureLearning: resetting && initial === null && operating !== null ? [operating] : [],
  };
}

/**
 * One phase of a run, as DESIGN.md draws it: `idle -> simulating` (set up the
 * world, then episodes with evaluation checkpoints, each checkpoint answered by
 * the spawned `evaluationTermination` child) until the termination flow, the
 * episode cap or a `cancel` stops it in `stopped`, `failed` or `cancelled`.
 * With the opt-in repeated meta loop (`script.metaEvery`), every
 * `metaEvery` episodes the barrier goes back into the meta turn through
 * `closingWorld`, and the new candidate's world is set up; the termination
 * child keeps running across decisions.
 * Its actors (`setUpWorld`, `runEpisode`, `endEpisode`, `runEvaluation`,
 * `resetWorld`, `closeWorld`, `metaTurn`) are unwired: `wireSimulationController` binds them
 * to a `PhaseWorld`, or supply your own with `.provide({ actors })`.
 *
 * @example
 * ```ts
 * const actor = createActor(wireSimulationController(world), { input }); // input: ControllerInput
 * actor.on('checkpoint.completed', ({ verdict }) => console.log(verdict.status));
 * actor.start();
 * actor.send({ type: 'start' });
 * ```
 */
export const simulationControllerMachine = setup({
  types: {
    input: {} as ControllerInput,
    context: {} as ControllerContext,
    events: {} as ControllerEvent,
    emitted: {} as ControllerEmitted,
    output: {} as ControllerOutput,
  },
  actors: {
    metaTurn: metaTurnMachine,
    evaluationTermination: evaluationTerminationMachine,
    terminationEvents,
    setUpWorld: unwired<SetUpWorldOutput, SetUpWorldInput>('setUpWorld'),
    closeWorld: unwired<{ closedAt: string }, void>('closeWorld'),
    runEpisode: unwired<
      { steps: number; returnsByAgent: Record<string, number>; environmentDone: boolean },
      EpisodeInput
    >('runEpisode'),
    endEpisode: unwired<void, { episode: EpisodeInput; summary: CompletedEpisode }>('endEpisode'),
    runEvaluation: unwired<
      { summary: CompletedEpisode; outcomes: CheckpointOutcome[] },
      EvaluationInput
    >('runEvaluation'),
    resetWorld: unwired<void, void>('resetWorld'),
  },
  guards: {
    isMetaProfile: ({ context }) => context.script.profile === 'meta',
    metaTurnSucceeded: ({ event }) =>
      (event as unknown as { output: MetaTurnOutput }).output.status === 'done',
    evaluationDue: ({ context }) =>
      context.phase.mode === 'train' &&
      context.phase.evaluateEvery !== null &&
      context.episodes % context.phase.evaluateEvery === 0,
    hasTermination: ({ context }) => context.termination !== null,
    episodeCapReached: ({ context }) =>
      context.phase.episodes !== null && context.episodes >= context.phase.episodes,
    flowStopsPhase: ({ event }) =>
      event.type === 'termination.flow' && event.control === 'STOP_PHASE',
    pausesAtBarrier: ({ context }) => context.pauseAtBarrier,
    metaDecisionDue: ({ context }) => metaDecisionDue(context),
  },
  actions: {
    countStartRequest: assign({
      startRequests: ({ context }) => context.startRequests + 1,
      override: () => ({}),
    }),
    spawnTermination: enqueueActions(({ context, enqueue }) => {
      if (context.termination === null) return;
      enqueue.spawnChild('evaluationTermination', {
        id: 'termination',
        systemId: 'termination',
        input: {
          // the run file's rules, checked when it was parsed
          agents: context.termination.agents as TerminationAgentsInput,
          phase: {
            mode: context.phase.mode,
            episodes: context.phase.episodes,
            evaluate_every: context.phase.evaluateEvery,
            worker: 1,
          },
        } as never,
      });
    }),
    assignMetaDecision: enqueueActions(({ context, enqueue, event }) => {
      const decision = (event as unknown as { output: MetaTurnOutput }).output;
      enqueue.assign({
        metaDecision: decision,
        // the candidate the world ran before this decision, to tell whether the world changes
        previousRevision: context.metaDecision?.decision?.toRevision ?? null,
        override: decision.override === null ? {} : { ...decision.override },
      });
      enqueue.emit({ type: 'meta.decided', decision });
    }),
    assignMetaFailure: assign({
      metaDecision: ({ event }) => (event as unknown as { output: MetaTurnOutput }).output,
      error: ({ event }) => {
        const output = (event as unknown as { output: MetaTurnOutput }).output;
        return {
          name: output.error?.name ?? 'MetaTurnError',
          code: output.error?.code ?? null,
          message: `meta turn failed at ${output.failedStep}: ${output.error?.message ?? ''}`,
          step: `metaTurn.${output.failedStep ?? 'unknown'}`,
        };
      },
      reason: () => 'failed',
    }),
    // a repeated decision is an internal start request, made when the world closed
    assignInternalRequest: assign({
      requestedAt: ({ context, event }) =>
        (event as unknown as { output?: { closedAt: string } }).output?.closedAt ??
        context.requestedAt,
    }),
    assignInitialLearning: assign({
      initialLearning: ({ context, event }) => {
        const output = (event as unknown as { output: SetUpWorldOutput }).output;
        return context.initialLearning ?? output?.learning ?? null;
      },
    }),
    assignWorldParams: assign({
      worldParams: ({ context }) => ({ ...context.environmentConfigurations, ...context.override }),
    }),
    assignEpisode: enqueueActions(({ context, enqueue, event }) => {
      const output = (
        event as unknown as {
          output: {
            steps: number;
            returnsByAgent: Record<string, number>;
            environmentDone: boolean;
          };
        }
      ).output;
      const summary: CompletedEpisode = {
        ordinal: context.ordinal + 1,
        episode: context.episodes + 1,
        mode: context.phase.mode,
        evaluation: false,
        steps: output.steps,
        returnsByAgent: output.returnsByAgent,
        environmentDone: output.environmentDone,
      };
      enqueue.assign({
        episodes: context.episodes + 1,
        ordinal: context.ordinal + 1,
        lastEpisode: summary,
      });
    }),
    emitEpisodeCompleted: emit(({ context }) => ({
      type: 'episode.completed' as const,
      phase: context.phase,
      summary: context.lastEpisode as CompletedEpisode,
    })),
    assignCheckpoint: enqueueActions(({ context, enqueue, event }) => {
      const output = (
        event as unknown as { output: { summary: CompletedEpisode; outcomes: CheckpointOutcome[] } }
      ).output;
      const summary: CompletedEpisode = { ...output.summary, ordinal: context.ordinal + 1 };
      enqueue.emit({ type: 'episode.completed', phase: context.phase, summary });
      enqueue.assign({
        ordinal: context.ordinal + 1,
        checkpoints: context.checkpoints + 1,
        lastCheckpoint: {
          index: context.checkpoints,
          afterEpisode: context.ordinal + 1,
          outcomes: output.outcomes,
          status: 'pending',
          decision: null,
          error: null,
        },
      });
    }),
    sendCheckpoint: sendTo('termination', ({ context }) => ({
      type: 'evaluation.checkpoint',
      outcomes: context.lastCheckpoint?.outcomes ?? [],
    })),
    recordCheckpointVerdict: assign({
      lastCheckpoint: ({ context, event }) => {
        if (event.type !== 'termination.checkpoint' || context.lastCheckpoint === null) {
          return context.lastCheckpoint;
        }
        const { index, afterEpisode, outcomes } = context.lastCheckpoint;
        const { type: _type, ...result } = event;
        return { index, afterEpisode, outcomes, ...result };
      },
    }),
    emitCheckpointCompleted: emit(({ context }) => ({
      type: 'checkpoint.completed' as const,
      phase: context.phase,
      verdict: context.lastCheckpoint as CheckpointVerdict,
    })),
    sendEpisodeEnded: sendTo('termination', ({ context }) => ({
      type: 'episode.ended',
      mode: context.phase.mode,
      completedEpisodes: context.episodes,
      environmentDone: context.lastEpisode?.environmentDone ?? false,
    })),
    assignFlow: assign({
      lastFlow: ({ context, event }) =>
        event.type === 'termination.flow'
          ? { control: event.control, reason: event.reason }
          : context.lastFlow,
      reason: ({ context, event }) =>
        event.type === 'termination.flow' && event.control === 'STOP_PHASE'
          ? event.reason
          : context.reason,
    }),
    assignMaxEpisodes: assign({
      reason: () => 'max_episodes',
      lastFlow: () => ({ control: 'STOP_PHASE' as const, reason: 'max_episodes' }),
    }),
    emitBarrierReached: emit(({ context }) => ({
      type: 'barrier.reached' as const,
      phase: context.phase,
      episodes: context.episodes,
      ordinal: context.ordinal,
    })),
    clearOverrideAndAccumulator: assign({ override: () => ({}), lastEpisode: () => null }),
    markStopped: assign({ status: 'stopped' as const }),
    markFailed: assign({ status: 'failed' as const }),
    markCancelled: assign({ status: 'cancelled' as const }),
    recordCancelBeforeStart: assign({ reason: 'cancelled' }),
    recordCancel: enqueueActions(({ context, enqueue }) => {
      if (context.termination !== null) enqueue.sendTo('termination', { type: 'cancel' });
      enqueue.assign({ reason: 'cancelled' });
    }),
    recordFailure: enqueueActions(({ context, enqueue, event }) => {
      // `xstate.error.actor.<id>`: the id names the invoked actor that failed.
      const step = event.type.replace(/^xstate\.error\.actor\./, '');
      if (context.termination !== null) enqueue.sendTo('termination', { type: 'fail' });
      enqueue.assign({
        reason: 'failed',
        error: serialize((event as unknown as { error: unknown }).error, step),
      });
    }),
  },
}).createMachine({
  id: 'simulationController',
  context: ({ input }) => ({
    phase: input.phase,
    script: input.script,
    environmentConfigurations: input.environmentConfigurations,
    termination: input.termination,
    pauseAtBarrier: input.pauseAtBarrier ?? false,
    requestedAt: input.requestedAt ?? new Date(0).toISOString(),
    startRequests: 0,
    initialLearning: null,
    previousRevision: null,
    override: {},
    worldParams: {},
    metaDecision: null,
    episodes: 0,
    ordinal: 0,
    lastEpisode: null,
    checkpoints: 0,
    lastCheckpoint: null,
    lastFlow: null,
    reason: null,
    error: null,
    status: 'active',
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        start: 'simulating',
        cancel: { target: 'cancelled', actions: 'recordCancelBeforeStart' },
      },
    },
    simulating: {
      entry: 'spawnTermination',
      invoke: { id: 'terminationEvents', src: 'terminationEvents' },
      on: {
        cancel: { target: 'cancelled', actions: 'recordCancel' },
        'termination.checkpoint': { actions: 'recordCheckpointVerdict' },
      },
      initial: 'starting',
      states: {
        starting: {
          entry: 'countStartRequest',
          always: [{ guard: 'isMetaProfile', target: 'metaTurn' }, { target: 'settingUp' }],
        },
        metaTurn: {
          invoke: {
            id: 'metaTurn',
            src: 'metaTurn',
            input: ({ context }) => ({
              environmentUid: context.script.definitionEnvironment ?? '',
              environmentConfigurations: structuredClone(context.environmentConfigurations),
              metaAgent: context.script.metaAgent ?? '',
              phase: context.phase.name,
              startRequest: context.startRequests,
              decidedAt: context.requestedAt,
            }),
            onDone: [
              {
                guard: 'metaTurnSucceeded',
                target: 'settingUp',
                actions: 'assignMetaDecision',
              },
              { target: '#simulationController.failed', actions: 'assignMetaFailure' },
            ],
            onError: { target: '#simulationController.failed', actions: 'recordFailure' },
          },
        },
        settingUp: {
          entry: 'assignWorldParams',
          invoke: {
            id: 'setUpWorld',
            src: 'setUpWorld',
            input: ({ context }) => setUpWorldInput(context),
            onDone: { target: 'running', actions: 'assignInitialLearning' },
            onError: { target: '#simulationController.failed', actions: 'recordFailure' },
          },
        },
        running: {
          invoke: {
            id: 'runEpisode',
            src: 'runEpisode',
            input: ({ context }) => episodeInput(context, false),
            onDone: { target: 'episodeBarrier', actions: 'assignEpisode' },
            onError: { target: '#simulationController.failed', actions: 'recordFailure' },
          },
        },
        episodeBarrier: {
          initial: 'handingOffReturn',
          states: {
            handingOffReturn: {
              invoke: {
                id: 'endEpisode',
                src: 'endEpisode',
                input: ({ context }) => ({
                  episode: { ...episodeInput(context, false), episode: context.episodes },
                  summary: context.lastEpisode as CompletedEpisode,
                }),
                onDone: [
                  { guard: 'evaluationDue', target: 'evaluating', actions: 'emitEpisodeCompleted' },
                  { target: 'decidingEpisodeFlow', actions: 'emitEpisodeCompleted' },
                ],
                onError: { target: '#simulationController.failed', actions: 'recordFailure' },
              },
            },
            evaluating: {
              invoke: {
                id: 'runEvaluation',
                src: 'runEvaluation',
                input: ({ context }) => ({
                  episode: episodeInput(context, true),
                  checkpointIndex: context.checkpoints,
                  agents: context.script.loopAgents,
                }),
                onDone: [
                  { guard: 'hasTermination', target: 'checkpointing', actions: 'assignCheckpoint' },
                  { target: 'decidingEpisodeFlow', actions: 'assignCheckpoint' },
                ],
                onError: { target: '#simulationController.failed', actions: 'recordFailure' },
              },
            },
            checkpointing: {
              entry: 'sendCheckpoint',
              on: {
                'termination.flow': [
                  {
                    guard: 'flowStopsPhase',
                    target: '#simulationController.stopped',
                    actions: ['assignFlow', 'emitCheckpointCompleted'],
                  },
                  {
                    target: 'decidingEpisodeFlow',
                    actions: ['assignFlow', 'emitCheckpointCompleted'],
                  },
                ],
              },
            },
            decidingEpisodeFlow: {
              always: [
                { guard: 'hasTermination', target: 'awaitingEpisodeFlow' },
                {
                  guard: 'episodeCapReached',
                  target: '#simulationController.stopped',
                  actions: 'assignMaxEpisodes',
                },
                { target: 'resting' },
              ],
            },
            awaitingEpisodeFlow: {
              entry: 'sendEpisodeEnded',
              on: {
                'termination.flow': [
                  {
                    guard: 'flowStopsPhase',
                    target: '#simulationController.stopped',
                    actions: 'assignFlow',
                  },
                  { target: 'resting', actions: 'assignFlow' },
                ],
              },
            },
            resting: {
              entry: 'emitBarrierReached',
              always: [
                { guard: 'pausesAtBarrier', target: 'paused' },
                {
                  guard: 'metaDecisionDue',
                  target: '#simulationController.simulating.closingWorld',
                },
                { target: '#simulationController.simulating.restarting' },
              ],
            },
            paused: {
              on: {
                continue: [
                  {
                    guard: 'metaDecisionDue',
                    target: '#simulationController.simulating.closingWorld',
                  },
                  { target: '#simulationController.simulating.restarting' },
                ],
              },
            },
          },
        },
        // The repeated meta loop: the world closes, then a new start request reruns the meta turn.
        closingWorld: {
          entry: 'clearOverrideAndAccumulator',
          invoke: {
            id: 'closeWorld',
            src: 'closeWorld',
            onDone: { target: 'metaTurn', actions: ['countStartRequest', 'assignInternalRequest'] },
            onError: { target: '#simulationController.failed', actions: 'recordFailure' },
          },
        },
        restarting: {
          entry: 'clearOverrideAndAccumulator',
          invoke: {
            id: 'resetWorld',
            src: 'resetWorld',
            onDone: 'running',
            onError: { target: '#simulationController.failed', actions: 'recordFailure' },
          },
        },
      },
    },
    stopped: { type: 'final', entry: 'markStopped' },
    failed: { type: 'final', entry: 'markFailed' },
    cancelled: { type: 'final', entry: 'markCancelled' },
  },
  output: ({ context }) => {
    return {
      status: context.status === 'active' ? 'stopped' : context.status,
      reason: context.reason,
      episodes: context.episodes,
      ordinal: context.ordinal,
      checkpoints: context.checkpoints,
      metaDecision: context.metaDecision,
      error: context.error,
    };
  },
});
