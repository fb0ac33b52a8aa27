export {
  type RunFileValidationOptions,
  runSpecIssues,
  validateRunFile,
  validateRunFileText,
} from '../config/runFileValidation.js';
export {
  RunConfigError,
  terminationIssues,
  terminationRulesOf,
} from '../config/terminationRules.js';
export { AgentContractError, AgentRuntime } from './experiment/agentRuntime.js';
export {
  type BuildWorldOptions,
  buildPhaseWorld,
  ComponentContractError,
  instantiate,
} from './experiment/components.js';
export {
  controllerInputFor,
  MetaProfileError,
  wireSimulationController,
} from './experiment/controllerActors.js';
export { ModulesChangedError } from './experiment/moduleChanges.js';
export { runExperiment$ } from './experiment/observeRun.js';
export type { RunEvent } from './experiment/runEvents.js';
export { type RunExperimentOptions, runExperiment } from './experiment/runExperiment.js';
export { RunInterruptedError } from './experiment/runInterrupted.js';
export type { PhaseOutcomeStatus, PhaseSummary, RunSummary } from './experiment/runSummary.js';
export {
  EpisodeAbortedError,
  type EpisodeRequest,
  type EpisodeResult,
  metaReturnUid,
  PhaseWorld,
  type WorldAgent,
  WorldError,
  type WorldScript,
} from './experiment/world.js';
