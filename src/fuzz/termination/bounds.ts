import type { SuccessRule, TerminationConfig } from '../../domain/termination/config.js';
import type { MetricRange } from './metricRange.js';
import { rangeName, rangeOf } from './metricRanges.js';

/**
 * The fewest evaluations success can take, from the rules alone: every agent
 * needs `min_evaluations` valid outcomes and a streak of `consecutive`, so
 * `max(min_evaluations, consecutive)` over the agents. `null` without success rules.
 *
 * @example
 * ```ts
 * successLowerBound(config); // 3 for consecutive 2, min_evaluations 3
 * ```
 */
export function successLowerBound(config: TerminationConfig): number | null {
  let bound: number | null = null;
  for (const agentName of config.agentNames) {
    const rule = config.agents[agentName]?.success;
    if (!rule) return null;
    bound = Math.max(bound ?? 0, rule.minEvaluations, rule.consecutive);
  }
  return bound;
}

/**
 * The fewest evaluations a plateau can take, from the rules alone. The first
 * full window (evaluation `window`) always sets the best value; patience
 * grows only from evaluation `max(window + 1, min_evaluations)` on, one per
 * evaluation, so the earliest plateau is at `max(window + 1, min_evaluations)
 * + patience − 1`, the maximum over the agents. `null` without plateau rules.
 *
 * @example
 * ```ts
 * plateauLowerBound(config); // 4 for patience 2, min_evaluations 3, window 1
 * ```
 */
export function plateauLowerBound(config: TerminationConfig): number | null {
  let bound: number | null = null;
  for (const agentName of config.agentNames) {
    const rule = config.agents[agentName]?.plateau;
    if (!rule) return null;
    const firstPatience = Math.max(rule.window + 1, rule.minEvaluations);
    bound = Math.max(bound ?? 0, firstPatience + rule.patience - 1);
  }
  return bound;
}

/**
 * Why success cannot be reached within the ranges, or `null` when every
 * agent's threshold can be met by some value in its metric's range.
 *
 * @example
 * ```ts
 * successOutOfRange(config, ranges);
 * // 'agent "SAC" needs objective ≥ 2, outside the range 0:1'
 * ```
 */
export function successOutOfRange(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
): string | null {
  for (const agentName of config.agentNames) {
    const rule = config.agents[agentName]?.success;
    if (!rule) continue;
    const range = rangeOf(ranges, rule.metric, agentName);
    const reachable =
      rule.direction === 'greater_equal'
        ? range.high >= rule.threshold
        : range.low <= rule.threshold;
    if (!reachable) {
      const where = range.assumed
        ? `the assumed range ${range.low}:${range.high} (give --metric ${rangeName(range)}=LOW:HIGH)`
        : `the range ${range.low}:${range.high}`;
      return `agent ${JSON.stringify(agentName)} needs ${rule.metric} ${symbol(rule)} ${rule.threshold}, outside ${where}`;
    }
  }
  return null;
}

/** Whether the run can go on forever, and why (from the rules and ranges). */
export interface ForeverAnalysis {
  readonly possible: boolean;
  /** One sentence per reason, readable as they stand. */
  readonly explanation: readonly string[];
  /** When not possible: the evaluation by which every sequence has terminated. */
  readonly bound: number | null;
}

/**
 * Decide whether some metric sequence within the ranges never terminates:
 * success must be avoidable (some agent can stay off its threshold, or there
 * is no success rule) and a plateau must be avoidable (no plateau rule, or an
 * agent with `min_delta: 0`, whose metric improves at every evaluation while
 * it never gets worse). Otherwise the run ends by a computable evaluation: a
 * metric bounded to a range of width `w` can improve by `min_delta` at most
 * `⌊w / min_delta⌋ + 1` times, and patience runs out between improvements.
 *
 * @example
 * ```ts
 * analyseForever(loadRules('examples/termination/rules.yaml'), ranges); // objective 0:1
 * // { possible: false, bound: 612, explanation: [
 * //   'success is avoidable: agent "PPO" can keep objective below 0.8 within 0:1',
 * //   'a plateau is unavoidable: with min_delta > 0 and a bounded range, … by evaluation 612 at the latest'] }
 * ```
 */
export function analyseForever(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
): ForeverAnalysis {
  const explanation: string[] = [];
  const success = successAvoidance(config, ranges, explanation);
  const plateau = plateauAvoidance(config, ranges, explanation);
  if (success.avoidable && plateau.avoidable) return { possible: true, explanation, bound: null };
  const bounds = [success.bound, plateau.bound].filter((bound): bound is number => bound !== null);
  return { possible: false, explanation, bound: bounds.length === 0 ? null : Math.min(...bounds) };
}

function successAvoidance(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
  explanation: string[],
): { avoidable: boolean; bound: number | null } {
  const lowerBound = successLowerBound(config);
  if (lowerBound === null) {
    explanation.push('there is no success rule, so success never ends the phase');
    return { avoidable: true, bound: null };
  }
  for (const agentName of config.agentNames) {
    const rule = config.agents[agentName]!.success!;
    const range = rangeOf(ranges, rule.metric, agentName);
    const avoidable =
      rule.direction === 'greater_equal' ? range.low < rule.threshold : range.high > rule.threshold;
    if (avoidable) {
      explanation.push(
        `success is avoidable: agent ${JSON.stringify(agentName)} can keep ${rule.metric} ${rule.direction === 'greater_equal' ? 'below' : 'above'} ${rule.threshold} within ${range.low}:${range.high}`,
      );
      return { avoidable: true, bound: null };
    }
  }
  explanation.push(
    `success is unavoidable: every value in the ranges meets every agent's threshold, so success comes by evaluation ${lowerBound} unless a plateau comes first`,
  );
  return { avoidable: false, bound: lowerBound };
}

function plateauAvoidance(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
  explanation: string[],
): { avoidable: boolean; bound: number | null } {
  if (plateauLowerBound(config) === null) {
    explanation.push('there is no plateau rule, so a plateau never ends the phase');
    return { avoidable: true, bound: null };
  }
  // After every agent's first full window and min_evaluations, each evaluation
  // either improves some agent (a bounded number of times in all) or adds
  // patience to every agent; `patience` evaluations in a row without an
  // improvement plateau them all.
  let start = 0;
  let improvements = 0;
  let patience = 0;
  for (const agentName of config.agentNames) {
    const rule = config.agents[agentName]!.plateau!;
    if (rule.minDelta === 0) {
      explanation.push(
        `a plateau is avoidable: agent ${JSON.stringify(agentName)} has min_delta 0, so a ${rule.metric} that never gets worse (${rule.direction === 'maximize' ? 'never decreases' : 'never increases'}) counts as an improvement at every evaluation and patience never runs out`,
      );
      return { avoidable: true, bound: null };
    }
    const range = rangeOf(ranges, rule.metric, agentName);
    start = Math.max(start, rule.window, rule.minEvaluations - 1);
    improvements += Math.floor((range.high - range.low) / rule.minDelta) + 1;
    patience = Math.max(patience, rule.patience);
  }
  const bound = start + (improvements + 1) * patience;
  explanation.push(
    `a plateau is unavoidable: with min_delta > 0 and a bounded range, each agent's ${config.agentNames.length === 1 ? 'metric' : 'metrics'} can improve only a bounded number of times (range width / min_delta), so every agent runs out of patience by evaluation ${bound} at the latest`,
  );
  return { avoidable: false, bound };
}

function symbol(rule: SuccessRule): string {
  return rule.direction === 'greater_equal' ? '≥' : '≤';
}
