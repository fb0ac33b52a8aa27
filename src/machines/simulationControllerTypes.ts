import type { JsonObject, JsonValue } from '../domain/shared/json.js';
import type { CheckpointDecision } from '../domain/termination/checkpoint.js';
import type { EvaluationOutcome } from '../domain/termination/outcome.js';
import type { FlowControl } from '../domain/termination/state.js';
import type { Mode } from '../ports/agent.js';
import type { RejectedCheckpointError } from './evaluationTermination.js';
import type { MetaTurnOutput } from './metaTurnTypes.js';

/** The types of the simulation controller: its input, context, events and output. */

/** The phase this controller runs. */
export interface ControllerPhase {
  readonly name: string;
  readonly index: number;
  readonly mode: Mode;
  /** The episode cap, or `null` for cap-free training (evaluation rules stop it). */
  readonly episodes: number | null;
  /** Run an evaluation episode every this many training episodes (`null`: never). */
  readonly evaluateEvery: number | null;
  readonly maxSteps: number;
}

/** What the controller needs of the lifecycle script. */
export interface ControllerScript {
  readonly profile: 'meta' | 'generic';
  readonly metaAgent: string | null;
  readonly operatingAgent: string | null;
  /** The environment whose definition the meta agent patches (meta profile). */
  readonly definitionEnvironment: string | null;
  /** Agents that act in `loop`, in script order; they report evaluation results. */
  readonly loopAgents: readonly string[];
  /**
   * The repeated meta loop (opt-in): rerun the meta turn every this many
   * episodes, at the episode barrier; absent or `null`, the seed's one-shot profile.
   */
  readonly metaEvery?: number | null;
  /**
   * At each repeated decision the operating agent keeps its learning
   * (`carry_over`, the default) or, when the candidate changed, `reset`s it to
   * its state right after the phase first set it up.
   */
  readonly metaLearning?: 'carry_over' | 'reset';
}

/**
 * What a controller runs: one phase, its lifecycle script, the environment configurations and the termination rules.
 */
export interface ControllerInput {
  readonly phase: ControllerPhase;
  readonly script: ControllerScript;
  /** The phase's stored environment configurations (never written back). */
  readonly environmentConfigurations: Readonly<Record<string, JsonObject>>;
  /** Evaluation-aware termination rules (`{ agents: {...} }`), or `null` for a plain episode cap. */
  readonly termination: JsonObject | null;
  /** Wait for a `continue` event at each episode barrier (a runner persists there). */
  readonly pauseAtBarrier?: boolean;
  /** ISO 8601 instant of the start request, for the meta decision record (default: the epoch). */
  readonly requestedAt?: string;
}

/** One episode's summary as the controller keeps it. */
export interface CompletedEpisode {
  /** 1-based position among every episode of the phase, training and evaluation alike. */
  readonly ordinal: number;
  readonly episode: number;
  readonly mode: Mode;
  readonly evaluation: boolean;
  readonly steps: number;
  readonly returnsByAgent: Readonly<Record<string, number>>;
  readonly environmentDone: boolean;
}

/** One evaluation outcome, as the termination machine takes it. */
export type CheckpointOutcome = EvaluationOutcome;

/**
 * The termination machine's answer to one checkpoint, told apart by `status`:
 * an accepted checkpoint carries the seed's decision, an ignored (incomplete)
 * one why it was ignored, a rejected one the error as data.
 *
 * @example
 * ```ts
 * if (verdict.status === 'accepted') verdict.decision.control; // 'CONTINUE' or 'STOP_PHASE'
 * if (verdict.status === 'rejected') verdict.error.code; // e.g. 'OUT_OF_ORDER_EVALUATION'
 * ```
 */
export type CheckpointResult =
  | { readonly status: 'pending'; readonly decision: null; readonly error: null }
  | { readonly status: 'accepted'; readonly decision: CheckpointDecision; readonly error: null }
  | {
      readonly status: 'ignored';
      readonly decision: { readonly reason: string };
      readonly error: null;
    }
  | {
      readonly status: 'rejected';
      readonly decision: null;
      readonly error: RejectedCheckpointError;
    };

/**
 * What became of one checkpoint in the termination machine: where it fell in
 * the phase, the outcomes sent, and the machine's typed {@link CheckpointResult}.
 *
 * @example
 * ```ts
 * run$.pipe(filter((event) => event.type === 'checkpoint.completed'))
 *   .subscribe(({ verdict }) => verdict.status === 'accepted' && console.log(verdict.decision.reason));
 * ```
 */
export type CheckpointVerdict = {
  readonly index: number;
  readonly afterEpisode: number;
  readonly outcomes: readonly CheckpointOutcome[];
} & CheckpointResult;

/** An error as data, with the controller or meta-turn step that raised it. */
export interface SerializedError {
  readonly name: string;
  readonly code: string | null;
  readonly message: string;
  /** The controller or meta-turn step that failed. */
  readonly step: string;
}

/** The controller's context: plain JSON, so a snapshot persists and restores. */
export interface ControllerContext {
  readonly phase: ControllerPhase;
  readonly script: ControllerScript;
  readonly environmentConfigurations: Readonly<Record<string, JsonObject>>;
  readonly termination: JsonObject | null;
  readonly pauseAtBarrier: boolean;
  /** The instant of the start request being served (a repeated decision's: when its world closed). */
  readonly requestedAt: string;
  /**
   * Start requests handled; each one runs the meta turn once (meta profile).
   * A repeated meta decision is an internal start request of its own.
   */
  readonly startRequests: number;
  /**
   * The loop agents' learning states right after the phase first set them up
   * (kept only for the meta loop's `learning: reset`), or `null`.
   */
  readonly initialLearning?: Readonly<Record<string, JsonValue>> | null;
  /** The candidate revision of the decision before the latest one (the meta loop), or `null`. */
  readonly previousRevision?: string | null;
  /** The request-scoped environment configuration override of the meta turn. */
  readonly override: Readonly<Record<string, JsonObject>>;
  /** The configurations the world was started from (kept to resume a run). */
  readonly worldParams: Readonly<Record<string, JsonObject>>;
  readonly metaDecision: MetaTurnOutput | null;
  /** Completed (non-evaluation) episodes of this phase. */
  readonly episodes: number;
  /** Completed episodes of this phase, evaluation episodes included. */
  readonly ordinal: number;
  readonly lastEpisode: CompletedEpisode | null;
  readonly checkpoints: number;
  readonly lastCheckpoint: CheckpointVerdict | null;
  readonly lastFlow: { readonly control: FlowControl; readonly reason: string | null } | null;
  /** The termination reason (`success`, `plateau`, `max_episodes`, `cancelled`, `failed`). */
  readonly reason: string | null;
  readonly error: SerializedError | null;
  readonly status: 'active' | 'stopped' | 'failed' | 'cancelled';
}

/**
 * Events the controller accepts: `start`, `continue`, `cancel` and the answers of its termination child.
 */
export type ControllerEvent =
  | { type: 'start' }
  | { type: 'continue' }
  | { type: 'cancel' }
  | { type: 'termination.flow'; control: FlowControl; reason: string | null }
  | ({ type: 'termination.checkpoint' } & Exclude<CheckpointResult, { status: 'pending' }>);

/** Emitted for observers (the run store, progress bars). */
export type ControllerEmitted =
  | { type: 'meta.decided'; decision: MetaTurnOutput }
  | { type: 'episode.completed'; phase: ControllerPhase; summary: CompletedEpisode }
  | { type: 'checkpoint.completed'; phase: ControllerPhase; verdict: CheckpointVerdict }
  | { type: 'barrier.reached'; phase: ControllerPhase; episodes: number; ordinal: number };

/** The controller's final output: how the phase ended and how far it got. */
export interface ControllerOutput {
  readonly status: 'stopped' | 'failed' | 'cancelled';
  readonly reason: string | null;
  readonly episodes: number;
  readonly ordinal: number;
  readonly checkpoints: number;
  readonly metaDecision: MetaTurnOutput | null;
  readonly error: SerializedError | null;
}

/** The input of `setUpWorld`: the configurations to start from and the learning states to restore. */
export interface SetUpWorldInput {
  readonly params: Readonly<Record<string, JsonObject>>;
  /** Agent name -> the learning state to set it up with (the meta loop's `learning: reset`). */
  readonly restoreLearning: Readonly<Record<string, JsonValue>>;
  /** Agents whose learning state to hand back once set up (the first setup under `learning: reset`). */
  readonly captureLearning: readonly string[];
}

/** What `setUpWorld` hands back: the learning states it was asked to capture (or nothing). */
export type SetUpWorldOutput =
  | { readonly learning: Readonly<Record<string, JsonValue>> }
  | undefined;

/** The input of one `runEpisode` invocation. */
export interface EpisodeInput {
  readonly phase: string;
  readonly episode: number;
  readonly mode: Mode;
  readonly evaluation: boolean;
  readonly maxSteps: number;
}

/** The input of one evaluation checkpoint: the episode and the agents evaluated. */
export interface EvaluationInput {
  readonly episode: EpisodeInput;
  readonly checkpointIndex: number;
  readonly agents: readonly string[];
}
