import type { PlateauRule, SuccessRule, TerminationConfig } from './config.js';
import type { AgentTerminationState } from './state.js';

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
export function allSuccessful(
  config: TerminationConfig,
  agents: Readonly<Record<string, AgentTerminationState>>,
): boolean {
  if (config.agentNames.length === 0) return false;
  for (const name of config.agentNames) {
    const rule = config.agents[name]?.success ?? null;
    const agent = agents[name];
    if (rule === null || agent === undefined) return false;
    if (agent.validEvaluations < rule.minEvaluations || agent.successStreak < rule.consecutive) {
      return false;
    }
  }
  return true;
}

/**
 * Whether every agent has a plateau rule and has run out of patience.
 *
 * @example
 * ```ts
 * allPlateaued(config, state.agents); // true once every plateauPatience ≥ patience
 * ```
 */
export function allPlateaued(
  config: TerminationConfig,
  agents: Readonly<Record<string, AgentTerminationState>>,
): boolean {
  if (config.agentNames.length === 0) return false;
  for (const name of config.agentNames) {
    const rule = config.agents[name]?.plateau ?? null;
    const agent = agents[name];
    if (rule === null || agent === undefined || agent.plateauPatience < rule.patience) return false;
  }
  return true;
}
