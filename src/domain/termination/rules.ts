import type {
  AgentTerminationRules,
  PlateauRule,
  SuccessRule,
  TerminationConfig,
} from './config.js';
import type { AgentTerminationState } from './state.js';

/** Each agent's termination state, by name. */
type AgentStates = Readonly<Record<string, AgentTerminationState>>;

/**
 * Whether one value meets a success threshold (inclusive).
 *
 * @example
 * ```ts
 * qualifiesForSuccess(0.8, { threshold: 0.8, direction: 'greater_equal', ... }); // true
 * ```
 */
export function qualifiesForSuccess(value: number, rule: SuccessRule): boolean {
  return rule.direction === 'greater_equal' ? value >= rule.threshold : value <= rule.threshold;
}

/**
 * Whether a smoothed value improves on the best so far by at least `minDelta`
 * (`≥ best + minDelta` to maximize, `≤ best − minDelta` to minimize). The
 * first value always improves.
 *
 * @example
 * ```ts
 * isImprovement(0.51, 0.5, { direction: 'maximize', minDelta: 0.01, ... }); // true
 * isImprovement(0.505, 0.5, { direction: 'maximize', minDelta: 0.01, ... }); // false
 * ```
 */
export function isImprovement(value: number, best: number | null, rule: PlateauRule): boolean {
  if (best === null) return true;
  return rule.direction === 'maximize'
    ? value >= best + rule.minDelta
    : value <= best - rule.minDelta;
}

/**
 * The mean of the window, summed oldest first like the seed, or `null` until
 * the window is full.
 *
 * @example
 * ```ts
 * smoothedMetric([1, 2, 3], 3); // 2
 * smoothedMetric([1, 2], 3); // null
 * ```
 */
export function smoothedMetric(window: readonly number[], size: number): number | null {
  if (window.length < size) return null;
  let sum = 0;
  for (let index = 0; index < window.length; index++) sum += window[index]!;
  return sum / window.length;
}

/**
 * Whether every agent has a success rule, `minEvaluations` valid outcomes and
 * a streak of at least `consecutive` qualifying ones.
 *
 * @example
 * ```ts
 * allSuccessful(config, state.agents); // false until every agent qualifies
 * ```
 */
export function allSuccessful(config: TerminationConfig, agents: AgentStates): boolean {
  return everyAgentMeets(
    config,
    agents,
    'success',
    (rule, agent) =>
      agent.validEvaluations >= rule.minEvaluations && agent.successStreak >= rule.consecutive,
  );
}

/**
 * Whether every agent has a plateau rule and has run out of patience.
 *
 * @example
 * ```ts
 * allPlateaued(config, state.agents); // true once every plateauPatience ≥ patience
 * ```
 */
export function allPlateaued(config: TerminationConfig, agents: AgentStates): boolean {
  return everyAgentMeets(
    config,
    agents,
    'plateau',
    (rule, agent) => agent.plateauPatience >= rule.patience,
  );
}

/** Whether there are agents and each has its `kind` rule and an agent state that `meets` it. */
function everyAgentMeets<Kind extends keyof AgentTerminationRules>(
  config: TerminationConfig,
  agents: AgentStates,
  kind: Kind,
  meets: (rule: NonNullable<AgentTerminationRules[Kind]>, agent: AgentTerminationState) => boolean,
): boolean {
  if (config.agentNames.length === 0) return false;
  return config.agentNames.every((name) => {
    const rule = config.agents[name]?.[kind] ?? null;
    const agent = agents[name];
    return rule !== null && agent !== undefined && meets(rule, agent);
  });
}
