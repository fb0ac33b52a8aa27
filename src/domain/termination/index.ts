export type {
  AgentCheckpointReport,
  AgentOutcomeStatus,
  CheckpointDecision,
  CheckpointReport,
} from './checkpoint.js';
export { applyCheckpoint } from './checkpoint.js';
export type {
  AgentRulesInput,
  AgentTerminationRules,
  PlateauDirection,
  PlateauRule,
  SuccessDirection,
  SuccessRule,
  TerminationAgentsInput,
  TerminationConfig,
  TerminationConfigIssue,
  TerminationRulesInput,
} from './config.js';
export {
  configurationFingerprint,
  configurationView,
  parseTerminationConfig,
  terminationConfigIssues,
  terminationConfigOf,
} from './config.js';
export type { EpisodeDecision, EpisodeEnd } from './episode.js';
export { applyEpisodeEnd } from './episode.js';
export {
  ConflictingDuplicateError,
  DuplicateAgentOutcomeError,
  InvalidOutcomeError,
  OutOfOrderEvaluationError,
  TerminationConfigError,
  TerminationStateError,
} from './errors.js';
export type { EvaluationOutcome } from './outcome.js';
export type { PhaseConfiguration, PhaseConfigurationInput } from './phase.js';
export { validatePhaseConfiguration } from './phase.js';
export type {
  AgentTerminationState,
  FlowControl,
  TerminationReason,
  TerminationState,
} from './state.js';
export { createTerminationState, markCancelled, markFailed } from './state.js';
export type { AgentStateDict, TerminationStateDict } from './stateDict.js';
export { fromStateDict, TERMINATION_STATE_VERSION, toStateDict } from './stateDict.js';
