/**
 * `arena-runtime/termination`: evaluation-aware termination, the seed's rules
 * as plain functions over plain data, and the machine that runs them.
 *
 * @example
 * ```ts
 * import { createTerminationState, applyCheckpoint } from 'arena-runtime/termination';
 * const state = createTerminationState({ agents: { SAC: { success: {
 *   metric: 'objective', threshold: 0.8, direction: 'greater_equal', consecutive: 1, min_evaluations: 1,
 * } } } });
 * applyCheckpoint(state, [{ agentName: 'SAC', evaluationId: 'e0', evaluationEpisode: 0, metrics: { objective: 0.9 } }])
 *   .decision.reason; // 'success'
 * ```
 */

export * from '../domain/termination/index.js';
export type {
  EvaluationTerminationActor,
  EvaluationTerminationContext,
  EvaluationTerminationEmitted,
  EvaluationTerminationEvent,
  EvaluationTerminationInput,
  EvaluationTerminationOutput,
  EvaluationTerminationSnapshot,
  RejectedCheckpointError,
  TerminationFlowEvent,
} from '../machines/evaluationTermination.js';
export {
  evaluationTerminationMachine,
  terminationFlow$,
} from '../machines/evaluationTermination.js';
