/**
 * `arena-runtime/experiment`: running experiments. `runExperiment` and its
 * Observable form, run files (parse, load, validate), the built-in components,
 * the controller and meta-turn machines, and the ports an in-code Environment,
 * Brain, Muscle or Objective implements.
 *
 * @example
 * ```ts
 * import { builtinComponents, loadRunFile, runExperiment$ } from 'arena-runtime/experiment';
 * import { createMemoryStore } from 'arena-runtime/store';
 * const spec = loadRunFile('examples/hosting-capacity.yaml');
 * runExperiment$(spec, { store: createMemoryStore(), builtins: builtinComponents })
 *   .subscribe((event) => console.log(event.type)); // 'run.started', 'phase.started', ...
 * ```
 */

export type {
  BuildWorldOptions,
  EpisodeRequest,
  EpisodeResult,
  PhaseOutcomeStatus,
  PhaseSummary,
  RunEvent,
  RunExperimentOptions,
  RunFileValidationOptions,
  RunSummary,
  WorldAgent,
  WorldScript,
} from '../actors/index.js';
export {
  AgentContractError,
  buildPhaseWorld,
  ComponentContractError,
  controllerInputFor,
  EpisodeAbortedError,
  MetaProfileError,
  ModulesChangedError,
  PhaseWorld,
  RunConfigError,
  runExperiment,
  runExperiment$,
  runSpecIssues,
  validateRunFile,
  validateRunFileText,
  WorldError,
  wireSimulationController,
} from '../actors/index.js';
export {
  builtinComponents,
  ConstantBrain,
  CrossEntropyBrain,
  DefaultMuscle,
  GridEnvironment,
  GridObjective,
  LinearPolicy,
  MetaBanditBrain,
  RandomBrain,
  SumObjective,
} from '../builtins/index.js';
export type {
  AgentSpec,
  ComponentRef,
  ComponentResolution,
  ConfigIssue,
  EnvironmentSpec,
  LifecycleScript,
  ParseRunFileOptions,
  PathSegment,
  PhaseConfig,
  PhaseSpec,
  RunFileDocument,
  RunSpec,
  ScriptContext,
  SimulationSpec,
  SourceLocation,
  TurnGroup,
} from '../config/index.js';
export {
  ComponentResolutionError,
  componentRefsOf,
  describeRunSpec,
  formatIssue,
  formatYamlPath,
  loadRunFile,
  parseLifecycleScript,
  parseRunFile,
  parseYamlPath,
  RunFileError,
  resolveComponent,
  resolveRunComponents,
  runFileJsonSchema,
  runFileSchema,
  ScriptError,
} from '../config/index.js';
export {
  DEFAULT_MAX_INPUT_BYTES,
  InputTooLargeError,
  readInputText,
  setMaxInputBytes,
} from '../config/inputFile.js';
export type { OrderedYaml, YamlParseOptions } from '../config/orderedYaml.js';
export {
  DEFAULT_MAX_ALIAS_COUNT,
  parseYamlWithKeyOrder,
  YamlAliasLimitError,
  YamlKeyCollisionError,
  YamlSyntaxError,
} from '../config/orderedYaml.js';
export type { BoxSpace, DiscreteSpace, Rng, Space } from '../domain/shared/index.js';
export { clipToSpace, contains, createRng, deriveSeed } from '../domain/shared/index.js';
export { MetaTurnError, MetaTurnWiringError, metaTurnMachine } from '../machines/metaTurn.js';
export type * from '../machines/metaTurnTypes.js';
export {
  ControllerWiringError,
  simulationControllerMachine,
} from '../machines/simulationController.js';
export type {
  CheckpointOutcome,
  CheckpointVerdict,
  CompletedEpisode,
  ControllerContext,
  ControllerEmitted,
  ControllerEvent,
  ControllerInput,
  ControllerOutput,
  ControllerPhase,
  ControllerScript,
  EpisodeInput,
  EvaluationInput,
  SerializedError,
} from '../machines/simulationControllerTypes.js';
export type {
  ActuatorInformation,
  AgentInterface,
  Brain,
  BrainFactory,
  BrainInit,
  ChannelInformation,
  Clock,
  Environment,
  EnvironmentFactory,
  EnvironmentInit,
  EnvironmentStart,
  EnvironmentStep,
  EvaluationResult,
  ManualClock,
  Mode,
  Muscle,
  MuscleFactory,
  Objective,
  ObjectiveFactory,
  Readings,
  SensorInformation,
  StepFeedback,
  TerminalUpdate,
  TurnContext,
} from '../ports/index.js';
export { fixedClock, systemClock } from '../ports/index.js';
