/**
 * arena's public API: everything a host app may import, area by area.
 * Generated from each area's own explicit barrel by `npx tsx scripts/barrel.ts`.
 *
 * @example
 * ```ts
 * import { createActor } from 'xstate';
 * import { evaluationTerminationMachine } from 'arena-runtime';
 * const actor = createActor(evaluationTerminationMachine, { input: { agents } });
 * ```
 */

// Shared building blocks
export { ArenaError, CanonicalJsonError, canonicalJson, clipToSpace, contains, createRng, deepFreeze, deriveSeed, isPlainObject, sha256Hex } from './domain/shared/index.js';
export type { BoxSpace, DiscreteSpace, JsonObject, JsonValue, NonFinitePolicy, Rng, Space } from './domain/shared/index.js';

// Evaluation-aware termination
export { ConflictingDuplicateError, DuplicateAgentOutcomeError, InvalidOutcomeError, OutOfOrderEvaluationError, TERMINATION_STATE_VERSION, TerminationConfigError, TerminationStateError, applyCheckpoint, applyEpisodeEnd, configurationFingerprint, configurationView, createTerminationState, fromStateDict, markCancelled, markFailed, parseTerminationConfig, toStateDict, validatePhaseConfiguration } from './domain/termination/index.js';
export type { AgentCheckpointReport, AgentOutcomeStatus, AgentStateDict, AgentTerminationRules, AgentTerminationState, CheckpointDecision, CheckpointReport, EpisodeDecision, EpisodeEnd, EvaluationOutcome, FlowControl, PhaseConfiguration, PhaseConfigurationInput, PlateauDirection, PlateauRule, SuccessDirection, SuccessRule, TerminationConfig, TerminationReason, TerminationState, TerminationStateDict } from './domain/termination/index.js';

// The definition layer and the meta-objective
export { DefinitionBridgeError, DefinitionConfigError, DefinitionFingerprintError, DefinitionPatchError, DefinitionProvider, DefinitionValidationError, JsonPointerError, ScenarioContractError, SelectorDiscoveryError, applyPatchOperations, boundsFromValue, buildDefinitionAgentInterface, buildPointer, catalogueActionAt, catalogueIndexOf, createDeclarativePatch, createDefinitionProvider, createScenarioActionCatalogue, createScenarioAgentInterface, createScenarioDecisionRecord, createScenarioPatchAction, createScenarioState, createScenarioTransition, defaultDiscoveryOptions, deriveSelectors, escapePointerToken, getAtPointer, interfaceFingerprint, interfaceFromSelectors, normalisationFromValue, parseDiscoveryOptions, parsePointer, patchForAction, patchHash, proposeDefinition, scenarioActionUid, scenarioRevision, scenarioStateFromCandidate, selectedScenarioAction, setAtPointer, subKeyOrder, unescapePointerToken } from './domain/definition/index.js';
export type { ActuatorDescriptor, CatalogueChoice, DeclarativePatch, DefinitionActions, DefinitionAgentInterface, DefinitionChannel, DefinitionInterface, DefinitionMap, DefinitionVector, DeriveSelectorsOptions, DescriptorFingerprint, DiscoveryOptions, KeyOrder, Normalisation, PatchOperation, ProposeDefinitionOptions, ProposedDefinition, ScenarioActionCatalogue, ScenarioAgentInterface, ScenarioDecisionInput, ScenarioDecisionRecord, ScenarioPatchAction, ScenarioState, ScenarioTransition, Selector, SelectorManifestEntry, SensorDescriptor, ValidatedCandidate } from './domain/definition/index.js';
export { ObjectiveConfigError, ObjectiveInputError, WeightedBoundaryObjective, componentDefaults, parseComponentSpecs } from './domain/objective/index.js';
export type { ComponentSpec } from './domain/objective/index.js';

// Judges
export { JUDGE_RESPONSE_FORMAT_NAME, JudgeCancelledError, JudgeConfigurationError, JudgeResponseError, JudgeTimeoutError, PROMPT_TEMPLATE_VERSION, addUsage, awareUtcTimestamp, candidateMessage, checkAgentJudgePolicy, costFromPrice, errorTypeOf, evidenceReference, failedGates, judgeCaseLineSchema, judgeInputJson, judgeMessages, judgePayloadJsonSchema, judgePayloadSchema, judgeSettings, messagesSha256, normaliseUsage, parseCaseLine, parseJudgePayload, promptSha256, readAnsweredAttempt, responseCost, retryDelayMs, summarizeJudgeResults, systemMessage, toolIsSafe } from './domain/judge/index.js';
export type { AgentJudgePolicyInput, AnsweredAttempt, BackoffSettings, CaseLineOutcome, ChatMessage, ClockReading, ContentReference, JudgeContext, JudgeGates, JudgePayload, JudgeResult, JudgeSettings, JudgeSettingsInput, JudgeStatus, JudgeSummary, MalformedCaseLine, ModelPrice, ReportedUsage, SubjectObservation, TokenUsage, ToolPolicy } from './domain/judge/index.js';

// Machines
export { evaluationTerminationMachine, terminationFlow$ } from './machines/evaluationTermination.js';
export type { EvaluationTerminationActor, EvaluationTerminationContext, EvaluationTerminationEmitted, EvaluationTerminationEvent, EvaluationTerminationInput, EvaluationTerminationOutput, EvaluationTerminationSnapshot, RejectedCheckpointError, TerminationFlowEvent } from './machines/evaluationTermination.js';
export { MetaTurnError, MetaTurnWiringError, metaTurnMachine } from './machines/metaTurn.js';
export type { MetaAgentInterface, MetaDecision, MetaTurnContext, MetaTurnFailure, MetaTurnInput, MetaTurnOutput } from './machines/metaTurn.js';
export { ControllerWiringError, simulationControllerMachine } from './machines/simulationController.js';
export type { CheckpointOutcome, CheckpointVerdict, CompletedEpisode, ControllerContext, ControllerEmitted, ControllerEvent, ControllerInput, ControllerOutput, ControllerPhase, ControllerScript, EpisodeInput, EvaluationInput, SerializedError } from './machines/simulationController.js';
export { judgeMachine, judgeResponseSchema } from './machines/judge.js';
export type { JudgeClock, JudgeMachineContext, JudgeMachineEvent, JudgeMachineInput, ProviderCallInput } from './machines/judge.js';

// Running machines
export { AgentContractError, AgentRuntime, ComponentContractError, EpisodeAbortedError, MetaProfileError, PhaseWorld, RunConfigError, WorldError, buildPhaseWorld, controllerInputFor, instantiate, metaReturnUid, restoreMetaAgent, runExperiment, terminationRulesOf, wireSimulationController } from './actors/index.js';
export type { BuildWorldOptions, EpisodeRequest, EpisodeResult, PhaseSummary, RunEvent, RunExperimentOptions, RunSummary, WorldAgent, WorldScript } from './actors/index.js';
export { agentJudgeFromConfig, createAgentJudge, createModelJudge, modelJudgeFromConfig, providerFromConfig } from './actors/judges.js';
export type { AgentJudgeOptions, FromConfigOptions, Judge, JudgeOptions, ModelJudgeOptions, TimerClock } from './actors/judges.js';
export { judgeCacheKey, judgeMany } from './actors/judgeMany.js';
export type { JudgeManyOptions, JudgeResultCache } from './actors/judgeMany.js';

// Run files and configuration
export { ComponentResolutionError, RunFileError, ScriptError, completePhaseSchema, componentRefsOf, declaringPhase, describeRunSpec, formatIssue, formatYamlPath, inheritPhase, lifecycleScriptSchema, loadRunFile, parseLifecycleScript, parseRunFile, parseYamlPath, partialLifecycleScriptSchema, partialPhaseSchema, resolveComponent, resolveRunComponents, runFileJsonSchema, runFileSchema, validateRunFile } from './config/index.js';
export type { AgentSpec, ComponentRef, ComponentResolution, ConfigIssue, EnvironmentSpec, LifecycleScript, ParseRunFileOptions, PathSegment, PhaseConfig, PhaseSpec, RunFileDocument, RunSpec, ScriptContext, SimulationSpec, SourceLocation, TurnGroup } from './config/index.js';
export { judgeConfigSchema, loadJudgeConfig, parseJudgeConfig, selectJudgeName } from './config/judgeConfig.js';
export type { JudgeConfig, JudgeProfile, LoadedJudgeConfig, ModelProfile } from './config/judgeConfig.js';
export { YamlKeyCollisionError, YamlSyntaxError, parseYamlWithKeyOrder } from './config/orderedYaml.js';
export type { OrderedYaml } from './config/orderedYaml.js';

// Ports and adapters
export { LOG_LEVELS, createLogger, fixedClock, silentLogger, systemClock } from './ports/index.js';
export type { ActuatorInformation, AgentInterface, Brain, BrainFactory, BrainInit, ChannelInformation, Clock, Environment, EnvironmentFactory, EnvironmentInit, EnvironmentStart, EnvironmentStep, EvaluationResult, LogLevel, Logger, LoggerOptions, ManualClock, Mode, Muscle, MuscleFactory, Objective, ObjectiveFactory, Readings, SensorInformation, StepFeedback, TerminalUpdate, TurnContext } from './ports/index.js';
export { DuplicateRecordError, InvalidRecordError, NothingToResumeError, PhaseNotFoundError, RunNotFoundError, StoreSchemaError, StoreUriError, StoreWriteError, StoreWriterClosedError, createMemoryStore, createRunIdGenerator, createStoreWriter, decodeStoredJson, defaultStorePath, encodeStoredJson, migrateStore, openSqliteStore, openStore, parseStoreUri, rewindToLatestSnapshot, storeMigrations } from './ports/runStore.js';
export type { CheckpointRecord, CheckpointStatus, EpisodeRecord, EpisodeSummary, MetaDecisionRecord, NewPhase, NewRun, NewSnapshot, PhaseMode, PhaseOutcome, PhaseRecord, PhaseStatus, ResumePoint, RunIdGenerator, RunOutcome, RunRecord, RunStatus, RunStore, SnapshotRecord, StoreLocation, StoreOptions, StoreWriteCommand, StoreWriter, StoreWriterOptions } from './ports/runStore.js';
export { ModelProviderError, ProviderAbortedError, ProviderConnectionError, ProviderHttpError, ProviderProtocolError, ProviderRateLimitError } from './ports/modelProvider.js';
export type { ModelProvider, ModelRequest, ModelResponse, ResponseSchema } from './ports/modelProvider.js';
export { createOpenAIProvider, retryAfterFrom } from './ports/openaiProvider.js';
export type { OpenAIProviderOptions } from './ports/openaiProvider.js';
export { ReplayFileError, ReplayMissError, createReplayProvider, loadReplayFile, parseReplayRecords, replayRecordSchema } from './ports/replayProvider.js';
export type { ReplayProviderOptions, ReplayRecord } from './ports/replayProvider.js';
export type { AgentGenerateOptions, AgentTool, JudgeAgent } from './ports/judgeAgent.js';

// Built-in environments and brains
export { BrainParamsError, BrainStateError, ConstantBrain, CrossEntropyBrain, DefaultMuscle, EvaluationLedger, GRID_DEFAULTS, GRID_OBJECTIVE_WEIGHTS, GRID_REWARDS, GridActionError, GridEnvironment, GridLifecycleError, GridObjective, GridScenarioError, GridTopologyError, LOAD_PROFILE_NAMES, LinearPolicy, META_RETURN_REWARD, MetaBanditBrain, MuscleProposalError, ObjectiveRewardError, RandomBrain, SumObjective, buildFeeder, builtinComponents, createPowerFlowResult, generatedFeederLines, isEvaluating, loadProfile, parseGridParams, profileAt, pvProfile, runDirectEpisode, sampleSpace, solveLinDistFlow, spaceFrame } from './builtins/index.js';
export type { ConditionDescriptor, DirectLoopParts, Feeder, GridModel, LineSpec, PowerFlowResult } from './builtins/index.js';
