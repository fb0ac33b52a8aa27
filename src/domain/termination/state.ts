import { describeValue } from '../shared/describeValue.js';
import {
  type TerminationConfig,
  type TerminationRulesInput,
  terminationConfigOf,
} from './config.js';
import type { DigestTrie } from './digestTrie.js';
import { TerminationStateError } from './errors.js';

/** The seed's terminal reasons, with the seed's values. */
export type TerminationReason = 'success' | 'plateau' | 'max_episodes' | 'cancelled' | 'failed';

/** The flow a termination decision asks of the simulation. */
export type FlowControl = 'CONTINUE' | 'RESTART' | 'STOP_PHASE';

/**
 * One agent's progress, plain JSON. Memory is bounded by the rules: a window
 * of the last `plateau.window` valid plateau metric values, counters, and one
 * 128-bit record digest per seen evaluation id (in a persistent
 * trie), never the outcomes themselves.
 */
export interface AgentTerminationState {
  /** The last recorded evaluation episode; the next must be exactly one more. */
  readonly lastEvaluation: number | null;
  /** Evaluation id -> record digest of the canonical outcome, for duplicate detection. */
  readonly seen: DigestTrie;
  /** How many evaluation ids `seen` holds. */
  readonly seenCount: number;
  /** Valid outcomes recorded so far (the seed's `len(history)`). */
  readonly validEvaluations: number;
  /** The last `plateau.window` valid plateau metric values, oldest first. */
  readonly plateauWindow: readonly number[];
  readonly successStreak: number;
  readonly plateauPatience: number;
  readonly bestMetric: number | null;
  readonly bestEvaluationId: string | null;
}

/** The whole condition's state, plain JSON; never mutated, only replaced. */
export interface TerminationState {
  /** The rules this state is judged by (shared, never copied). */
  readonly config: TerminationConfig;
  readonly agents: Readonly<Record<string, AgentTerminationState>>;
  readonly terminationReason: TerminationReason | null;
}

/** The state of an agent that has seen nothing yet. */
export const initialAgentState: AgentTerminationState = Object.freeze({
  lastEvaluation: null,
  seen: null,
  seenCount: 0,
  validEvaluations: 0,
  plateauWindow: Object.freeze([]) as readonly number[],
  successStreak: 0,
  plateauPatience: 0,
  bestMetric: null,
  bestEvaluationId: null,
});

/**
 * The state of a fresh condition: every configured agent at zero, no reason.
 * This is the state {@link applyCheckpoint} and `applyEpisodeEnd` take and
 * return; make it from the rules as a rule file writes them (the seed's
 * snake_case keys, `{ agents }` or the mapping itself) or from a config
 * `parseTerminationConfig` returned. A saved state comes back with
 * `fromStateDict`.
 *
 * @throws TerminationConfigError naming every agent and field of bad rules.
 * @example
 * ```ts
 * import { applyCheckpoint, createTerminationState } from 'arena-runtime/termination';
 * const state = createTerminationState({ agents: { SAC: { success: {
 *   metric: 'objective', threshold: 0.8, direction: 'greater_equal', consecutive: 1, min_evaluations: 1,
 * } } } });
 * state.agents.SAC;
 * // { lastEvaluation: null, seen: null, seenCount: 0, validEvaluations: 0, plateauWindow: [],
 * //   successStreak: 0, plateauPatience: 0, bestMetric: null, bestEvaluationId: null }
 * const { state: next, decision } = applyCheckpoint(state, [
 *   { agentName: 'SAC', evaluationId: 'e0', evaluationEpisode: 0, metrics: { objective: 0.9 } },
 * ]);
 * decision.reason; // 'success'
 * next.terminationReason; // 'success'
 * ```
 */
export function createTerminationState(rules: TerminationRulesInput): TerminationState {
  const config = terminationConfigOf(rules);
  const agents: Record<string, AgentTerminationState> = {};
  for (const name of config.agentNames) agents[name] = initialAgentState;
  return { config, agents, terminationReason: null };
}

/**
 * `state` with `reason` recorded, unless a reason is already set: the first
 * terminal reason wins and sticks.
 *
 * @example
 * ```ts
 * withTerminationReason(withTerminationReason(state, 'success'), 'failed').terminationReason;
 * // 'success'
 * ```
 */
export function withTerminationReason(
  state: TerminationState,
  reason: TerminationReason,
): TerminationState {
  if (state.terminationReason !== null) return state;
  return { ...state, terminationReason: reason };
}

/**
 * Record an external cancellation (`cancelled`), unless a reason is already set.
 *
 * @example
 * ```ts
 * markCancelled(createTerminationState(config)).terminationReason; // 'cancelled'
 * ```
 */
export function markCancelled(state: TerminationState): TerminationState {
  return withTerminationReason(state, 'cancelled');
}

/**
 * Record an external framework failure (`failed`), unless a reason is already set.
 *
 * @example
 * ```ts
 * markFailed(createTerminationState(config)).terminationReason; // 'failed'
 * ```
 */
export function markFailed(state: TerminationState): TerminationState {
  return withTerminationReason(state, 'failed');
}

/**
 * `state`, when it is a condition's state; otherwise a `TerminationStateError`
 * that says how to make one (rules, or a parsed config, are not a state).
 * What `applyCheckpoint` and `applyEpisodeEnd` check their state with, so a
 * JavaScript caller gets that sentence instead of a `TypeError`.
 *
 * @example
 * ```ts
 * checkTerminationState(createTerminationState(rules), 'applyCheckpoint'); // the state
 * checkTerminationState(rules, 'applyCheckpoint');
 * // throws TerminationStateError('applyCheckpoint takes the state createTerminationState(rules)
 * //   returns (or fromStateDict restores), got a mapping with keys agents')
 * ```
 */
export function checkTerminationState(state: unknown, caller: string): TerminationState {
  const config = isObject(state) ? state.config : undefined;
  if (
    isObject(state) &&
    isObject(config) &&
    Array.isArray(config.agentNames) &&
    isObject(state.agents) &&
    'terminationReason' in state
  ) {
    return state as unknown as TerminationState;
  }
  const got = isObject(state)
    ? `a mapping with keys ${Object.keys(state).join(', ') || '(none)'}`
    : describeValue(state);
  throw new TerminationStateError(
    `${caller} takes the state createTerminationState(rules) returns (or fromStateDict restores), got ${got}`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
