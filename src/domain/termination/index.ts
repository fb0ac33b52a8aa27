export * from './checkpoint.js';
export * from './config.js';
export * from './episode.js';
export * from './errors.js';
export type { EvaluationOutcome } from './outcome.js';
export * from './phase.js';
export type {
  AgentTerminationState,
  FlowControl,
  TerminationReason,
  TerminationState,
} from './state.js';
export { createTerminationState, markCancelled, markFailed } from './state.js';
export * from './stateDict.js';
