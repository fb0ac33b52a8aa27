import { Observable } from 'rxjs';
import type { Actor, SnapshotFrom } from 'xstate';
import { assertEvent, enqueueActions, setup } from 'xstate';
import { ArenaError } from '../domain/shared/errors.js';
import type { CheckpointDecision } from '../domain/termination/checkpoint.js';
import { applyCheckpoint } from '../domain/termination/checkpoint.js';
import { parseTerminationConfig } from '../domain/termination/config.js';
import { applyEpisodeEnd } from '../domain/termination/episode.js';
import type { PhaseConfiguration, PhaseConfigurationInput } from '../domain/termination/phase.js';
import { validatePhaseConfiguration } from '../domain/termination/phase.js';
import type {
  FlowControl,
  TerminationReason,
  TerminationState,
} from '../domain/termination/state.js';
import { createTerminationState, markCancelled, markFailed } from '../domain/termination/state.js';

/** Input: the seed-shaped `agents` rules (snake_case) and, optionally, the phase configuration. */
export interface EvaluationTerminationInput {
  readonly agents: unknown;
  readonly phase?: PhaseConfigurationInput | null;
}

/** Plain JSON context: the domain state, the validated phase, and the reason once set. */
export interface EvaluationTerminationContext {
  readonly termination: TerminationState;
  readonly phase: PhaseConfiguration | null;
  readonly reason: TerminationReason | null;
}

/** Events the machine accepts while `active`. */
export type EvaluationTerminationEvent =
  | { type: 'evaluation.checkpoint'; outcomes: readonly unknown[] }
  | { type: 'episode.ended'; mode: string; completedEpisodes: number; environmentDone: boolean }
  | { type: 'cancel' }
  | { type: 'fail' };

/** A rejected checkpoint's error, as data. */
export interface RejectedCheckpointError {
  readonly name: string;
  readonly code: string;
  readonly message: string;
}

/** Events the machine emits (listen with `actor.on(type, handler)`). */
export type EvaluationTerminationEmitted =
  | { type: 'flow'; control: FlowControl; reason: TerminationReason | null }
  | { type: 'checkpoint.accepted'; decision: CheckpointDecision }
  | { type: 'checkpoint.ignored'; reason: string; decision: CheckpointDecision }
  | { type: 'checkpoint.rejected'; error: RejectedCheckpointError };

/** The final output: the seed's terminal reason. */
export interface EvaluationTerminationOutput {
  readonly reason: TerminationReason | null;
}

/** The final state each terminal reason leads to. */
const finalStateOf = {
  success: 'success',
  plateau: 'plateau',
  max_episodes: 'maxEpisodes',
  cancelled: 'cancelled',
  failed: 'failed',
} as const satisfies Record<TerminationReason, string>;

/**
 * Evaluation-aware termination of one training phase, as a thin chart over
 * `domain/termination`: `active` until a terminal reason is recorded, then the
 * final state named for it (`success`, `plateau`, `maxEpisodes`, `cancelled`,
 * `failed`) with output `{ reason }` in the seed's values.
 *
 * It emits `flow { control, reason }` after every event, plus
 * `checkpoint.accepted`, `checkpoint.ignored` (incomplete checkpoint) or
 * `checkpoint.rejected` (context unchanged, actor alive) for each checkpoint.
 * A final state takes no more events: the actor that owns this one answers any
 * later checkpoint with `STOP_PHASE` and the output's reason (which is what
 * `applyCheckpoint` itself returns after a terminal reason). The rules are
 * parsed when the actor is created: a bad rule set or phase leaves the new
 * actor's snapshot in status `error` with the `TerminationConfigError` as
 * `snapshot.error`, reported to the error observer (or the parent) on start.
 *
 * @example
 * ```ts
 * const actor = createActor(evaluationTerminationMachine, { input: { agents: {
 *   SAC: { success: { metric: 'objective', threshold: 0.8, direction: 'greater_equal',
 *                     consecutive: 1, min_evaluations: 1 } },
 * } } });
 * actor.on('flow', (event) => console.log(event.control, event.reason));
 * actor.start();
 * actor.send({ type: 'evaluation.checkpoint', outcomes: [
 *   { agentName: 'SAC', evaluationId: 'e0', evaluationEpisode: 0, metrics: { objective: 0.9 } },
 * ] });
 * // STOP_PHASE success
 * actor.getSnapshot().value; // 'success'
 * actor.getSnapshot().output; // { reason: 'success' }
 * ```
 */
export const evaluationTerminationMachine = setup({
  types: {
    input: {} as EvaluationTerminationInput,
    context: {} as EvaluationTerminationContext,
    events: {} as EvaluationTerminationEvent,
    emitted: {} as EvaluationTerminationEmitted,
    output: {} as EvaluationTerminationOutput,
  },
  guards: {
    endedInSuccess: ({ context }) => context.reason === 'success',
    endedInPlateau: ({ context }) => context.reason === 'plateau',
    reachedMaxEpisodes: ({ context }) => context.reason === 'max_episodes',
    wasCancelled: ({ context }) => context.reason === 'cancelled',
    hasFailed: ({ context }) => context.reason === 'failed',
  },
  actions: {
    applyCheckpoint: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'evaluation.checkpoint');
      let result: ReturnType<typeof applyCheckpoint>;
      try {
        result = applyCheckpoint(context.termination, event.outcomes);
      } catch (error) {
        if (!(error instanceof ArenaError)) throw error;
        enqueue.emit({
          type: 'checkpoint.rejected',
          error: { name: error.name, code: error.code, message: error.message },
        });
        enqueue.emit({ type: 'flow', control: 'CONTINUE', reason: context.reason });
        return;
      }
      const { state, decision } = result;
      enqueue.assign({ termination: state, reason: state.terminationReason });
      if (decision.report.checkpoint === 'incomplete') {
        enqueue.emit({ type: 'checkpoint.ignored', reason: ignoredReason(decision), decision });
      } else {
        enqueue.emit({ type: 'checkpoint.accepted', decision });
      }
      enqueue.emit({ type: 'flow', control: decision.control, reason: decision.reason });
    }),
    applyEpisodeEnd: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'episode.ended');
      const { state, decision } = applyEpisodeEnd(context.termination, context.phase, event);
      enqueue.assign({ termination: state, reason: state.terminationReason });
      enqueue.emit({ type: 'flow', control: decision.control, reason: decision.reason });
    }),
    recordCancellation: enqueueActions(({ context, enqueue }) => {
      const state = markCancelled(context.termination);
      enqueue.assign({ termination: state, reason: state.terminationReason });
      enqueue.emit({ type: 'flow', control: 'STOP_PHASE', reason: state.terminationReason });
    }),
    recordFailure: enqueueActions(({ context, enqueue }) => {
      const state = markFailed(context.termination);
      enqueue.assign({ termination: state, reason: state.terminationReason });
      enqueue.emit({ type: 'flow', control: 'STOP_PHASE', reason: state.terminationReason });
    }),
  },
}).createMachine({
  id: 'evaluationTermination',
  context: ({ input }) => ({
    termination: createTerminationState(parseTerminationConfig({ agents: input.agents })),
    phase:
      input.phase === undefined || input.phase === null
        ? null
        : validatePhaseConfiguration(input.phase),
    reason: null,
  }),
  initial: 'active',
  states: {
    active: {
      always: [
        { guard: 'endedInSuccess', target: finalStateOf.success },
        { guard: 'endedInPlateau', target: finalStateOf.plateau },
        { guard: 'reachedMaxEpisodes', target: finalStateOf.max_episodes },
        { guard: 'wasCancelled', target: finalStateOf.cancelled },
        { guard: 'hasFailed', target: finalStateOf.failed },
      ],
      on: {
        'evaluation.checkpoint': { actions: 'applyCheckpoint' },
        'episode.ended': { actions: 'applyEpisodeEnd' },
        cancel: { actions: 'recordCancellation' },
        fail: { actions: 'recordFailure' },
      },
    },
    success: { type: 'final' },
    plateau: { type: 'final' },
    maxEpisodes: { type: 'final' },
    cancelled: { type: 'final' },
    failed: { type: 'final' },
  },
  output: ({ context }) => ({ reason: context.reason }),
});

function ignoredReason(decision: CheckpointDecision): string {
  const missing = decision.report.agents
    .filter((agent) => agent.status === 'missing')
    .map((agent) => agent.agentName);
  return `incomplete checkpoint: no outcome for ${missing.join(', ')}`;
}

/** A running evaluation-termination actor. */
export type EvaluationTerminationActor = Actor<typeof evaluationTerminationMachine>;
/** A snapshot of the evaluation-termination machine. */
export type EvaluationTerminationSnapshot = SnapshotFrom<typeof evaluationTerminationMachine>;
/** One `flow` event. */
export type TerminationFlowEvent = Extract<EvaluationTerminationEmitted, { type: 'flow' }>;

/**
 * The actor's `flow` events as an RxJS stream that completes when the actor
 * reaches a final state (after that state's own `flow` event) and errors when
 * the actor errors. Subscribe before sending events: emitted events are hot.
 *
 * @example
 * ```ts
 * terminationFlow$(actor).subscribe((flow) => console.log(flow.control, flow.reason));
 * actor.send({ type: 'cancel' });
 * // STOP_PHASE cancelled   (then the stream completes)
 * ```
 */
export function terminationFlow$(
  actor: EvaluationTerminationActor,
): Observable<TerminationFlowEvent> {
  return new Observable<TerminationFlowEvent>((subscriber) => {
    const flows = actor.on('flow', (event) => subscriber.next(event));
    const status = actor.subscribe({
      next: (snapshot) => {
        if (snapshot.status === 'done') subscriber.complete();
      },
      error: (error) => subscriber.error(error),
    });
    if (actor.getSnapshot().status === 'done') subscriber.complete();
    return () => {
      flows.unsubscribe();
      status.unsubscribe();
    };
  });
}
