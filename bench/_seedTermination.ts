/**
 * The seed's evaluation-aware termination condition
 * (palaestrAI's `AgentEvaluationObjectiveTerminationCondition`,
 * /work/shared/seeds/evaluation_termination_condition.py), ported line by line
 * so that bench/termination.ts can time it against arena on the same stream in
 * the same process. Only the checkpoint path is ported (`__init__`,
 * `evaluation_flow_control` and what it calls); episode flow, state dicts and
 * the phase checks do not run per checkpoint. It keeps the seed's costs on
 * purpose: every outcome is kept (`seen`, `history`), `_smoothed_metric`
 * copies the whole history each checkpoint, the agents are sorted each time.
 * Not part of arena: a leading underscore keeps bench/run.ts from running it.
 */
import type { EvaluationOutcome } from '../src/domain/termination/index.js';

type SeedReason = 'success' | 'plateau' | 'max_episodes' | 'cancelled' | 'failed';

interface SuccessRule {
  readonly metric: string;
  readonly threshold: number;
  readonly direction: string;
  readonly consecutive: number;
  readonly min_evaluations: number;
}

interface PlateauRule {
  readonly metric: string;
  readonly direction: string;
  readonly min_delta: number;
  readonly patience: number;
  readonly min_evaluations: number;
  readonly window: number;
}

/** The canonical outcome the seed keeps, keys in the seed's order. */
interface Canonical {
  readonly evaluation_id: string;
  readonly evaluation_episode: unknown;
  readonly checkpoint_id: string | null;
  readonly checkpoint_hash: string | null;
  readonly metrics: Record<string, unknown>;
}

class AgentState {
  last_evaluation: number | null = null;
  seen = new Map<string, Canonical>();
  success_streak = 0;
  plateau_patience = 0;
  best_metric: number | null = null;
  best_evaluation_id: string | null = null;
  history: Canonical[] = [];
}

/** Python's logging below the WARNING level: the call happens, nothing is formatted. */
const LOG = {
  level: 30,
  info(..._args: unknown[]): void {
    if (this.level <= 20) console.info(..._args);
  },
  warning(..._args: unknown[]): void {},
};

/** Python's `==` on the JSON-like values of a canonical outcome. */
function pyEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => pyEquals(item, b[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && pyEquals(left[key], right[key]));
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The seed's condition, checkpoint path only; names kept from the Python. */
export class SeedEvaluationTermination {
  private readonly _success_rules = new Map<string, SuccessRule | null>();
  private readonly _plateau_rules = new Map<string, PlateauRule | null>();
  private _states: Map<string, AgentState>;
  private _termination_reason: SeedReason | null = null;

  constructor(agents: Record<string, { success?: SuccessRule; plateau?: PlateauRule }>) {
    if (!isMapping(agents) || Object.keys(agents).length === 0) {
      throw new Error("'agents' must be a non-empty mapping");
    }
    for (const [agent_name, rules] of Object.entries(agents)) {
      const success = 'success' in rules ? { ...rules.success! } : null;
      const plateau = 'plateau' in rules ? { ...rules.plateau! } : null;
      if (success === null && plateau === null) {
        throw new Error(`agent ${agent_name} needs a success and/or plateau rule`);
      }
      this._success_rules.set(agent_name, success);
      this._plateau_rules.set(agent_name, plateau);
    }
    this._states = new Map(
      [...this._success_rules.keys()].map((agent) => [agent, new AgentState()]),
    );
  }

  get termination_reason(): SeedReason | null {
    return this._termination_reason;
  }

  /** Consume one completed evaluation checkpoint per configured agent. */
  evaluation_flow_control(
    outcomes: Iterable<EvaluationOutcome>,
  ): ['CONTINUE' | 'STOP_PHASE', { termination_reason: SeedReason } | null] {
    if (this._termination_reason !== null) {
      return ['STOP_PHASE', { termination_reason: this._termination_reason }];
    }

    const outcome_by_agent = new Map<string, EvaluationOutcome>();
    for (const outcome of outcomes) {
      if (!this._states.has(outcome.agentName)) continue;
      if (outcome_by_agent.has(outcome.agentName)) {
        throw new Error(
          `duplicate evaluation outcome for agent ${outcome.agentName} in one checkpoint`,
        );
      }
      outcome_by_agent.set(outcome.agentName, outcome);
    }

    const expected = new Set(this._states.keys());
    const got = new Set(outcome_by_agent.keys());
    if (expected.size !== got.size || [...expected].some((name) => !got.has(name))) {
      for (const agent_name of [...expected].filter((name) => !got.has(name))) {
        this._invalid_outcome(agent_name, 'missing agent outcome');
      }
      LOG.warning(
        'Ignoring incomplete evaluation checkpoint; expected agents %s, got %s',
        [...expected].sort(),
        [...got].sort(),
      );
      return ['CONTINUE', null];
    }

    for (const agent_name of [...this._states.keys()].sort()) {
      this._record_outcome(agent_name, outcome_by_agent.get(agent_name)!);
    }

    if (this._all_successful()) this._set_terminal_reason('success');
    else if (this._all_plateaued()) this._set_terminal_reason('plateau');

    if (this._termination_reason === null) return ['CONTINUE', null];
    return ['STOP_PHASE', { termination_reason: this._termination_reason }];
  }

  private _record_outcome(agent_name: string, outcome: EvaluationOutcome): void {
    const state = this._states.get(agent_name)!;
    const evaluation_id = outcome.evaluationId;
    if (typeof evaluation_id !== 'string' || !evaluation_id) {
      this._invalid_outcome(agent_name, 'missing evaluation identity');
      return;
    }
    const evaluation = outcome.evaluationEpisode;
    if (!isMapping(outcome.metrics)) throw new Error('evaluation metrics must be a mapping');
    const checkpoint_id = outcome.checkpointId ?? null;
    const checkpoint_hash = outcome.checkpointHash ?? null;
    if (checkpoint_id !== null && typeof checkpoint_id !== 'string') {
      throw new Error('checkpoint_id must be a string or null');
    }
    if (checkpoint_hash !== null && typeof checkpoint_hash !== 'string') {
      throw new Error('checkpoint_hash must be a string or null');
    }
    const canonical: Canonical = {
      evaluation_id,
      evaluation_episode: evaluation,
      checkpoint_id,
      checkpoint_hash,
      metrics: { ...outcome.metrics },
    };
    const previous = state.seen.get(evaluation_id);
    if (previous !== undefined) {
      if (!pyEquals(previous, canonical)) {
        throw new Error(`conflicting duplicate evaluation result ${evaluation_id}`);
      }
      return;
    }
    const expected_evaluation =
      state.last_evaluation === null ? evaluation : state.last_evaluation + 1;
    if (
      typeof evaluation !== 'number' ||
      !Number.isInteger(evaluation) ||
      evaluation < 0 ||
      evaluation !== expected_evaluation
    ) {
      throw new Error(
        `out-of-order evaluation ${evaluation} for ${agent_name}; expected ${expected_evaluation}`,
      );
    }
    state.seen.set(evaluation_id, canonical);
    state.last_evaluation = evaluation;
    if (!this._is_valid_outcome(agent_name, outcome)) {
      this._invalid_outcome(agent_name, 'missing or non-finite configured metric');
      return;
    }

    state.history.push(canonical);
    LOG.info(
      'Accepted deterministic evaluation_id=%s for agent=%s episode=%d metrics=%s checkpoint_id=%r checkpoint_hash=%r',
      evaluation_id,
      agent_name,
      evaluation,
      canonical.metrics,
      outcome.checkpointId,
      outcome.checkpointHash,
    );
    const success = this._success_rules.get(agent_name)!;
    const plateau = this._plateau_rules.get(agent_name)!;
    if (success !== null) {
      const value = Number(outcome.metrics[success.metric]);
      if (SeedEvaluationTermination._qualifies_success(value, success)) state.success_streak += 1;
      else state.success_streak = 0;
    }
    if (plateau !== null) {
      const plateau_value = SeedEvaluationTermination._smoothed_metric(
        state,
        plateau.metric,
        plateau.window,
      );
      if (plateau_value !== null) {
        if (SeedEvaluationTermination._is_improvement(plateau_value, state.best_metric, plateau)) {
          state.best_metric = plateau_value;
          state.best_evaluation_id = evaluation_id;
          state.plateau_patience = 0;
        } else if (state.history.length >= plateau.min_evaluations) {
          state.plateau_patience += 1;
        }
      }
    }
  }

  private _invalid_outcome(agent_name: string, reason: string): void {
    const state = this._states.get(agent_name)!;
    state.success_streak = 0;
    LOG.warning('Ignoring invalid deterministic evaluation for %s: %s', agent_name, reason);
  }

  private _is_valid_outcome(agent_name: string, outcome: EvaluationOutcome): boolean {
    const required_metrics = new Set(
      [this._success_rules.get(agent_name), this._plateau_rules.get(agent_name)]
        .filter((rule) => rule !== null && rule !== undefined)
        .map((rule) => rule.metric),
    );
    return [...required_metrics].every(
      (metric) =>
        metric in outcome.metrics &&
        typeof outcome.metrics[metric] === 'number' &&
        Number.isFinite(outcome.metrics[metric]),
    );
  }

  private _all_successful(): boolean {
    if (this._success_rules.size === 0) return false;
    for (const [agent, rule] of this._success_rules) {
      if (rule === null) return false;
      const state = this._states.get(agent)!;
      if (state.history.length < rule.min_evaluations || state.success_streak < rule.consecutive) {
        return false;
      }
    }
    return true;
  }

  private _all_plateaued(): boolean {
    if (this._plateau_rules.size === 0) return false;
    for (const [agent, rule] of this._plateau_rules) {
      if (rule === null || this._states.get(agent)!.plateau_patience < rule.patience) return false;
    }
    return true;
  }

  private static _qualifies_success(value: number, rule: SuccessRule): boolean {
    if (rule.direction === 'greater_equal') return value >= rule.threshold;
    return value <= rule.threshold;
  }

  private static _is_improvement(value: number, best: number | null, rule: PlateauRule): boolean {
    if (best === null) return true;
    if (rule.direction === 'maximize') return value >= best + rule.min_delta;
    return value <= best - rule.min_delta;
  }

  /** `list(state.history)[-window:]`: the whole history is copied, then sliced. */
  private static _smoothed_metric(
    state: AgentState,
    metric: string,
    window: number,
  ): number | null {
    if (state.history.length < window) return null;
    const values = Array.from(state.history)
      .slice(-window)
      .filter((item) => metric in item.metrics)
      .map((item) => Number(item.metrics[metric]));
    return values.length === window
      ? values.reduce((sum, value) => sum + value, 0) / values.length
      : null;
  }

  private _set_terminal_reason(reason: SeedReason): void {
    if (this._termination_reason === null) {
      this._termination_reason = reason;
      LOG.info('Evaluation-aware termination reason: %s', reason);
    }
  }
}
