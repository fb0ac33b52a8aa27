import type { JsonObject, JsonValue } from '../domain/shared/json.js';
import type { EnvironmentStart, Readings } from './environment.js';
import type { Logger } from './runtime/logger.js';

/** How an episode runs: `train` learns, `test` and evaluation episodes do not. */
export type Mode = 'train' | 'test';

/** The named, finite metrics a brain reports from its evaluation rollouts. */
export interface EvaluationResult {
  readonly metrics: Readonly<Record<string, number>>;
  /** Optional identity of the policy that was evaluated. */
  readonly checkpointId?: string | null;
  readonly checkpointHash?: string | null;
}

/** What an agent is set up with: its interface for this phase. */
export interface AgentInterface extends EnvironmentStart {
  /** Initial readings (for the meta agent: the definition vector). */
  readonly readings: Readings;
}

/** Where in the run an action or update happens. */
export interface TurnContext {
  readonly mode: Mode;
  /** `true` inside an evaluation episode: act deterministically, do not learn. */
  readonly evaluation: boolean;
  readonly phase: string;
  readonly episode: number;
  readonly step: number;
}

/** One step's feedback: the environment rewards and the objective's scalar. */
export interface StepFeedback {
  readonly readings: Readings;
  readonly actions: Readings;
  readonly rewards: Readings;
  readonly objective: number;
  readonly done: boolean;
}

/** The end of an episode: its return and the terminal rewards. */
export interface TerminalUpdate {
  readonly rewards: Readings;
  /** The sum of the episode's objective values. */
  readonly episodeReturn: number;
  readonly done: true;
}

/** What a brain or muscle is constructed with. */
export interface BrainInit {
  readonly name: string;
  readonly params: JsonObject;
  /** Seed derived from the run's seed; the only source of randomness. */
  readonly seed: number;
  readonly logger: Logger;
}

/**
 * The learning half of an agent. A brain owns the policy and its state;
 * `saveState`/`loadState` carry it across phases and through the run store.
 */
export interface Brain {
  setup(agentInterface: AgentInterface): void | Promise<void>;
  /** Propose actuator values for `readings` (the muscle may post-process them). */
  act(readings: Readings, context: TurnContext): Readings | Promise<Readings>;
  /** Learn from one step (not called in test or evaluation episodes). */
  observe(feedback: StepFeedback, context: TurnContext): void | Promise<void>;
  /** The end of an episode: learn from its return. */
  endEpisode(update: TerminalUpdate, context: TurnContext): void | Promise<void>;
  /** The metrics of the evaluation episodes since the last call. */
  evaluateRollouts(): EvaluationResult | Promise<EvaluationResult>;
  saveState?(): JsonValue;
  loadState?(state: JsonValue): void;
}

/** The acting half of an agent: turns brain proposals into actuator values (a remote muscle answers later). */
export interface Muscle {
  act(
    proposal: Readings,
    agentInterface: AgentInterface,
    context: TurnContext,
  ): Readings | Promise<Readings>;
}

/** Reduces a step's rewards to the one scalar an agent optimises (a remote objective answers later). */
export interface Objective {
  evaluate(rewards: Readings): number | Promise<number>;
}

/** Builds a Brain from its init (a class with a `paramsSchema`, or a function). */
export type BrainFactory = (init: BrainInit) => Brain;

/** Builds a Muscle from its init. */
export type MuscleFactory = (init: BrainInit) => Muscle;

/** Builds an Objective from its params. */
export type ObjectiveFactory = (init: { params: JsonObject }) => Objective;
