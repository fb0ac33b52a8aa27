/**
 * `arena-runtime`: what most host apps need. Run an experiment (or watch it
 * as an Observable), read and check run files, open a store, drive the
 * termination, controller, meta-turn and judge machines, and log. Everything
 * else lives behind its capability's subpath: `arena-runtime/termination`,
 * `/definition`, `/judge`, `/experiment`, `/store`, `/inspect`, `/diagram`,
 * `/report`, `/fuzz`, `/postgres`, `/nats` (each holds this entry's names of
 * its area too). A driver (better-sqlite3 for SQLite stores, openai for model
 * judges...) is an optional peer dependency, loaded at first use; a missing
 * one is a `MissingPeerDependencyError` naming the `npm install` that adds it.
 *
 * @example
 * ```ts
 * import { builtinComponents, createMemoryStore, loadRunFile, runExperiment } from 'arena-runtime';
 * const summary = await runExperiment(loadRunFile('examples/hosting-capacity.yaml'), {
 *   store: createMemoryStore(),
 *   builtins: builtinComponents,
 * });
 * summary.status; // 'succeeded'
 * ```
 */

// Running experiments and run files
export type {
  PhaseSummary,
  RunEvent,
  RunExperimentOptions,
  RunFileValidationOptions,
  RunSummary,
} from './actors/index.js';
export {
  runExperiment,
  runExperiment$,
  validateRunFile,
  validateRunFileText,
} from './actors/index.js';
export type { ConfigIssue, ParseRunFileOptions, RunSpec } from './config/index.js';
export { RunFileError, loadRunFile, parseRunFile } from './config/index.js';
export { builtinComponents } from './builtins/index.js';
export type {
  Brain,
  BrainFactory,
  Environment,
  EnvironmentFactory,
  Muscle,
  MuscleFactory,
  Objective,
  ObjectiveFactory,
} from './ports/index.js';

// Stores
export type { MigratableDatabase, RunRecord, RunStore } from './entries/store.js';
export {
  createMemoryStore,
  migrateStore,
  openSqliteStore,
  openStore,
  openStoreAsync,
  parseStoreUri,
} from './entries/store.js';

// Machines
export type {
  AgentRulesInput,
  CheckpointDecision,
  EvaluationOutcome,
  TerminationAgentsInput,
  TerminationConfig,
  TerminationReason,
} from './domain/termination/index.js';
export { parseTerminationConfig } from './domain/termination/index.js';
export type {
  EvaluationTerminationEmitted,
  EvaluationTerminationEvent,
  EvaluationTerminationInput,
  EvaluationTerminationOutput,
} from './machines/evaluationTermination.js';
export {
  evaluationTerminationMachine,
  terminationFlow$,
} from './machines/evaluationTermination.js';
export type {
  CheckpointVerdict,
  ControllerEmitted,
  ControllerInput,
  ControllerOutput,
} from './machines/simulationControllerTypes.js';
export { simulationControllerMachine } from './machines/simulationController.js';
export type { MetaTurnInput, MetaTurnOutput } from './machines/metaTurnTypes.js';
export { metaTurnMachine } from './machines/metaTurn.js';
export type { JudgeMachineInput } from './machines/judge.js';
export { judgeMachine } from './machines/judge.js';

// Judges
export type { JudgeContext, JudgeResult, JudgeSummary } from './domain/judge/index.js';
export { summarizeJudgeResults } from './domain/judge/index.js';
export type { Judge } from './actors/judging/judges.js';
export { judgeFromConfig } from './actors/judging/judgeFromConfig.js';
export type { JudgeManyOptions } from './actors/judging/judgeMany.js';
export { judgeMany } from './actors/judging/judgeMany.js';
export type { JudgeConfig, LoadedJudgeConfig } from './config/judgeConfig.js';
export { loadJudgeConfig, parseJudgeConfig } from './config/judgeConfig.js';

// Logging, errors and JSON
export type { Logger, LoggerOptions, LogLevel } from './ports/index.js';
export { LOG_LEVELS, createLogger, silentLogger } from './ports/index.js';
export type { JsonObject, JsonValue } from './domain/shared/index.js';
export { ArenaError } from './domain/shared/index.js';
export type { OptionalPeer } from './ports/runtime/optionalPeers.js';
export { MissingPeerDependencyError } from './ports/runtime/optionalPeers.js';
