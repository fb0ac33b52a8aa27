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
  restoreMetaAgent,
  wireSimulationController,
} from './controllerActors.js';
export {
  type PhaseSummary,
  RunConfigError,
  type RunEvent,
  type RunExperimentOptions,
  type RunSummary,
  runExperiment,
  terminationRulesOf,
} from './runExperiment.js';
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
