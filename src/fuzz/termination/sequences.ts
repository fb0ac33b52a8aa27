import { applyCheckpoint } from '../../domain/termination/checkpoint.js';
import type { TerminationConfig } from '../../domain/termination/config.js';
import type { EvaluationOutcome } from '../../domain/termination/outcome.js';
import type { TerminationReason, TerminationState } from '../../domain/termination/state.js';
import { createTerminationState } from '../../domain/termination/state.js';

/** One evaluation checkpoint: per agent, the value of each metric its rules read. */
export type MetricEvaluation = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** Evaluation checkpoints in order, the first one is evaluation 0. */
export type MetricSequence = readonly MetricEvaluation[];

/** Where a sequence led. */
export interface PlayResult {
  /** The terminal reason, or `null` if the sequence ended with the phase still active. */
  readonly reason: TerminationReason | null;
  /** Checkpoints applied: up to and including the one that terminated, else all. */
  readonly evaluations: number;
  /** The state after the last applied checkpoint. */
  readonly state: TerminationState;
  /** The last state that was still active (before the terminating checkpoint). */
  readonly lastActiveState: TerminationState;
}

/**
 * The metrics each agent's rules read, sorted: the keys of one agent's entry
 * in a {@link MetricEvaluation}.
 *
 * @example
 * ```ts
 * metricsByAgent(config); // { PPO: ['objective'], SAC: ['objective'] }
 * ```
 */
export function metricsByAgent(config: TerminationConfig): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const agentName of config.agentNames) {
    const rules = config.agents[agentName];
    const names = new Set<string>();
    if (rules?.success) names.add(rules.success.metric);
    if (rules?.plateau) names.add(rules.plateau.metric);
    result[agentName] = [...names].sort();
  }
  return result;
}

/**
 * The checkpoint of evaluation `index`: one outcome per agent with
 * evaluation id `<agent>-<index>` and evaluation episode `index`.
 *
 * @example
 * ```ts
 * outcomesOf(config, { SAC: { objective: 0.5 } }, 3);
 * // [{ agentName: 'SAC', evaluationId: 'SAC-3', evaluationEpisode: 3, metrics: { objective: 0.5 } }]
 * ```
 */
export function outcomesOf(
  config: TerminationConfig,
  evaluation: MetricEvaluation,
  index: number,
): EvaluationOutcome[] {
  return config.agentNames.map((agentName) => ({
    agentName,
    evaluationId: `${agentName}-${index}`,
    evaluationEpisode: index,
    metrics: { ...(evaluation[agentName] ?? {}) },
  }));
}

/**
 * Apply a metric sequence from a fresh state with the real
 * `applyCheckpoint`, stopping at the first terminal reason.
 *
 * @example
 * ```ts
 * playSequence(config, [{ SAC: { objective: 0.9 } }, { SAC: { objective: 0.9 } }]);
 * // { reason: 'success', evaluations: 2, state: {…}, lastActiveState: {…} }
 * ```
 */
export function playSequence(config: TerminationConfig, sequence: MetricSequence): PlayResult {
  let state = createTerminationState(config);
  let lastActiveState = state;
  let evaluations = 0;
  for (const [index, evaluation] of sequence.entries()) {
    lastActiveState = state;
    state = applyCheckpoint(state, outcomesOf(config, evaluation, index)).state;
    evaluations = index + 1;
    if (state.terminationReason !== null) break;
  }
  if (state.terminationReason === null) lastActiveState = state;
  return { reason: state.terminationReason, evaluations, state, lastActiveState };
}
