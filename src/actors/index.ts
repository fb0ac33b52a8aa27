export { AgentContractError, AgentRuntime } from './agentRuntime.js';
export {
  type BuildWorldOptions,
  buildPhaseWorld,
  ComponentContractError,
  instantiate,
} from './components.js';
export {
  controllerInputFor,
  MetaProfileError,
  wireSimulationController,
} from './controllerActors.js';
export { ModulesChangedError } from './moduleChanges.js';
export { runExperiment$ } from './observeRun.js';
export type { RunEvent } from './runEvents.js';
export { type RunExperimentOptions, runExperiment } from './runExperiment.js';
export {
  type RunFileValidationOptions,
  runSpecIssues,
  validateRunFile,
  validateRunFileText,
} from './runFileValidation.js';
export { RunInterruptedError } from './runInterrupted.js';
export type { PhaseOutcomeStatus, PhaseSummary, RunSummary } from './runSummary.js';
export { RunConfigError, terminationIssues, terminationRulesOf } from './terminationRules.js';
export {
  EpisodeAbortedError,
  type EpisodeRequest,
  type EpisodeResult,
  metaReturnUid,
  PhaseWorld,
  type WorldAgent,
  WorldError,
  type WorldScript,
} from './world.js';
