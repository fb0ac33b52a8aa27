import { Observable } from 'rxjs';
import type { Actor, SnapshotFrom } from 'xstate';
import { assertEvent, assign, emit, setup } from 'xstate';
import { ArenaError } from '../domain/shared/errors.js';
import type { CheckpointDecision } from '../domain/termination/checkpoint.js';
import { applyCheckpoint } from '../domain/termination/checkpoint.js';
import type { TerminationAgentsInput } from '../domain/termination/config.js';
import { parseTerminationConfig } from '../domain/termination/config.js';
import { applyEpisodeEnd } from '../domain/termination/episode.js';
import type { EvaluationOutcome } from '../domain/termination/outcome.js';
import type { PhaseConfiguration, PhaseConfigurationInput } from '../domain/termination/phase.js';
import { validatePhaseConfiguration } from '../domain/termination/phase.js';
import type {
  FlowControl,
  TerminationReason,
  TerminationState,
} from '../domain/termination/state.js';
import { createTerminationState, markCancelled, markFailed } from '../domain/termination/state.js';

/** Input: the seed-shaped `agents` rules (snake_case, as in YAML) and, optionally, the phase configuration. */
export interface EvaluationTerminationInput {
  readonly agents: TerminationAgentsInput;
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
  | { type: 'evaluation.checkpoint'; outcomes: readonly EvaluationOutcome[] }
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

/** A checkpoint's result against one termination state: applied, or rejected as data. */
type CheckpointResult =
  | { readonly applied: ReturnType<typeof applyCheckpoint>; readonly error: null }
  | { readonly applied: null; readonly error: RejectedCheckpointError };

/**
 * The guards and actions of one transition all need the same checkpoint
 * result. The last one computed is remembered with the (event, state) pair it
 * belongs to, so the chart can route on it without applying a checkpoint
 * twice; any other pair simply computes again. (One slot, not a WeakMap:
 * ephemeron tables made the collector the main cost of `actor.send`.)
 */
let lastCheckpoint: {
  readonly event: object;
  readonly termination: TerminationState;
  readonly result: CheckpointResult;
} | null = null;

function checkpointResult(
  termination: TerminationState,
  event: EvaluationTerminationEvent,
): CheckpointResult {
  assertEvent(event, 'evaluation.checkpoint');
  if (lastCheckpoint?.event === event && lastCheckpoint.termination === termination) {
    return lastCheckpoint.result;
  }
  let result: CheckpointResult;
  try {
    result = { applied: applyCheckpoint(termination, event.outcomes), error: null };
  } catch (error) {
    if (!(error instanceof ArenaError)) throw error;
    result = {
      applied: null,
      error: { name: error.name, code: error.code, message: error.message },
    };
  }
  lastCheckpoint = { event, termination, result };
  return result;
}

function appliedCheckpoint(
  context: EvaluationTerminationContext,
  event: EvaluationTerminationEvent,
): ReturnType<typeof applyCheckpoint> {
  const { applied } = checkpointResult(context.termination, event);
  if (applied === null) throw new Error('a rejected checkpoint has no result to record');
  return applied;
}

function checkpointEndsWith(
  context: EvaluationTerminationContext,
  event: EvaluationTerminationEvent,
  reason: TerminationReason,
): boolean {
  return checkpointResult(context.termination, event).applied?.decision.reason === reason;
}

function episodeEnd(context: EvaluationTerminationContext, event: EvaluationTerminationEvent) {
  assertEvent(event, 'episode.ended');
  return applyEpisodeEnd(context.termination, context.phase, event);
}

/** The outcome is emitted first: it reads the result cached for the state before recording. */
const checkpointActions = [
  'emitCheckpointOutcome',
  'recordCheckpoint',
  'emitCheckpointFlow',
] as const;

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
    checkpointContinues: ({ context, event }) => {
      const { applied } = checkpointResult(context.termination, event);
      return applied !== null && applied.decision.reason === null;
    },
    checkpointIsRejected: ({ context, event }) =>
      checkpointResult(context.termination, event).error !== null,
    checkpointSucceeds: ({ context, event }) => checkpointEndsWith(context, event, 'success'),
    checkpointPlateaus: ({ context, event }) => checkpointEndsWith(context, event, 'plateau'),
    episodeReachesMaxEpisodes: ({ context, event }) =>
      episodeEnd(context, event).decision.reason === 'max_episodes',
  },
  actions: {
    recordCheckpoint: assign(({ context, event }) => {
      const { state } = appliedCheckpoint(context, event);
      return { termination: state, reason: state.terminationReason };
    }),
    emitCheckpointOutcome: emit(({ context, event }) => {
      const { decision } = appliedCheckpoint(context, event);
      return decision.report.checkpoint === 'incomplete'
        ? { type: 'checkpoint.ignored' as const, reason: ignoredReason(decision), decision }
        : { type: 'checkpoint.accepted' as const, decision };
    }),
    emitCheckpointRejected: emit(({ context, event }) => ({
      type: 'checkpoint.rejected' as const,
      error: checkpointResult(context.termination, event).error!,
    })),
    emitCheckpointFlow: emit(({ context }) => ({
      type: 'flow' as const,
      control: context.reason === null ? ('CONTINUE' as const) : ('STOP_PHASE' as const),
      reason: context.reason,
    })),
    recordEpisodeEnd: assign(({ context, event }) => {
      const { state } = episodeEnd(context, event);
      return { termination: state, reason: state.terminationReason };
    }),
    emitEpisodeFlow: emit(({ context, event }) => {
      const { decision } = episodeEnd(context, event);
      return { type: 'flow' as const, control: decision.control, reason: decision.reason };
    }),
    recordCancellation: assign(({ context }) => {
      const state = markCancelled(context.termination);
      return { termination: state, reason: state.terminationReason };
    }),
    recordFailure: assign(({ context }) => {
      const state = markFailed(context.termination);
      return { termination: state, reason: state.terminationReason };
    }),
    emitStopFlow: emit(({ context }) => ({
      type: 'flow' as const,
      control: 'STOP_PHASE' as const,
      reason: context.reason,
    })),
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
      on: {
        // The common case first: one guard per checkpoint instead of three.
        'evaluation.checkpoint': [
          { guard: 'checkpointContinues', actions: checkpointActions },
          {
            guard: 'checkpointIsRejected',
            actions: ['emitCheckpointRejected', 'emitCheckpointFlow'],
          },
          { guard: 'checkpointSucceeds', target: 'success', actions: checkpointActions },
          { guard: 'checkpointPlateaus', target: 'plateau', actions: checkpointActions },
        ],
        'episode.ended': [
          {
            guard: 'episodeReachesMaxEpisodes',
            target: 'maxEpisodes',
            actions: ['recordEpisodeEnd', 'emitEpisodeFlow'],
          },
          { actions: 'emitEpisodeFlow' },
        ],
        cancel: { target: 'cancelled', actions: ['recordCancellation', 'emitStopFlow'] },
        fail: { target: 'failed', actions: ['recordFailure', 'emitStopFlow'] },
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
