export type {
  AgentInterface,
  Brain,
  BrainFactory,
  BrainInit,
  EvaluationResult,
  Mode,
  Muscle,
  MuscleFactory,
  Objective,
  ObjectiveFactory,
  StepFeedback,
  TerminalUpdate,
  TurnContext,
} from './agent.js';
export type {
  ActuatorInformation,
  ChannelInformation,
  Environment,
  EnvironmentFactory,
  EnvironmentInit,
  EnvironmentStart,
  EnvironmentStep,
  Readings,
  SensorInformation,
} from './environment.js';
export { type Clock, fixedClock, type ManualClock, systemClock } from './runtime/clock.js';
export {
  createLogger,
  LOG_LEVELS,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  silentLogger,
} from './runtime/logger.js';
