import type { AgentTerminationRules, PlateauRule, TerminationConfig } from './config.js';
import { DuplicateAgentOutcomeError, InvalidOutcomeError } from './errors.js';
import type { EvaluationOutcome, OutcomePlan } from './outcome.js';
import { planOutcome } from './outcome.js';
import { isImprovement, qualifiesForSuccess, smoothedMetric } from './rules.js';
import {
  type AgentTerminationState,
  checkTerminationState,
  type TerminationReason,
  type TerminationState,
} from './state.js';

/**
 * What happened to one agent at a checkpoint: `accepted` (a valid outcome was
 * recorded), `duplicate` (an identical re-send, nothing changed), `invalid`
 * (recorded, but it resets the success streak and keeps the plateau state),
 * `missing` (no outcome in an incomplete checkpoint: streak reset), `ignored`
 * (its outcome was not looked at because the checkpoint was incomplete).
 */
export type AgentOutcomeStatus = 'accepted' | 'duplicate' | 'invalid' | 'missing' | 'ignored';

/** One agent's line of evidence in a checkpoint report, after the checkpoint. */
export interface AgentCheckpointReport {
  readonly agentName: string;
  readonly status: AgentOutcomeStatus;
  /** Why an outcome was invalid, missing or ignored; `null` otherwise. */
  readonly detail: string | null;
  readonly evaluationId: string | null;
  readonly evaluationEpisode: number | null;
  /** The success metric's value, when finite. */
  readonly successValue: number | null;
  /** The mean of the plateau window, once the window is full. */
  readonly smoothedValue: number | null;
  readonly validEvaluations: number;
  readonly successStreak: number;
  readonly plateauPatience: number;
  readonly bestMetric: number | null;
}

/** The evidence for one checkpoint decision. */
export interface CheckpointReport {
  /** `applied`, `incomplete` (some agent had no outcome) or `afterTermination` (not looked at). */
  readonly checkpoint: 'applied' | 'incomplete' | 'afterTermination';
  readonly agents: readonly AgentCheckpointReport[];
  /** Agent names in the checkpoint that no rule mentions (ignored, like the seed). */
  readonly unknownAgents: readonly string[];
}

/** What a checkpoint means for the phase. */
export interface CheckpointDecision {
  readonly control: 'CONTINUE' | 'STOP_PHASE';
  readonly reason: TerminationReason | null;
  readonly report: CheckpointReport;
}

/**
 * Apply one evaluation checkpoint (one outcome per configured agent) with the
 * seed's semantics, atomically: every outcome is validated first, then all are
 * applied or nothing is. `state` is never changed; a new state is returned and
 * unchanged agents are shared with it.
 *
 * After any terminal reason the checkpoint is not looked at and the decision is
 * `STOP_PHASE` with that reason. An incomplete checkpoint resets the missing
 * agents' success streaks and changes nothing else. Success is checked before
 * plateau.
 *
 * @throws DuplicateAgentOutcomeError, ConflictingDuplicateError,
 *   OutOfOrderEvaluationError or InvalidOutcomeError; `state` is then untouched.
 * @example
 * ```ts
 * const { state: next, decision } = applyCheckpoint(state, [
 *   { agentName: 'SAC', evaluationId: 'e0', evaluationEpisode: 0, metrics: { objective: 0.9 } },
 * ]);
 * decision.control; // 'CONTINUE'
 * decision.report.agents[0]?.status; // 'accepted'
 * ```
 */
export function applyCheckpoint(
  state: TerminationState,
  outcomes: readonly EvaluationOutcome[] | readonly unknown[],
): { state: TerminationState; decision: CheckpointDecision } {
  checkTerminationState(state, 'applyCheckpoint');
  if (state.terminationReason !== null) {
    return {
      state,
      decision: {
        control: 'STOP_PHASE',
        reason: state.terminationReason,
        report: { checkpoint: 'afterTermination', agents: [], unknownAgents: [] },
      },
    };
  }
  const { config } = state;
  const names = config.agentNames;
  let byAgent: readonly (Readonly<Record<string, unknown>> | undefined)[];
  let unknownAgents = NO_AGENTS;
  if (inConfigOrder(names, outcomes)) {
    byAgent = outcomes as readonly Readonly<Record<string, unknown>>[];
  } else {
    const grouped = groupByAgent(config, outcomes);
    byAgent = grouped.byAgent;
    unknownAgents = grouped.unknownAgents;
    if (grouped.found !== names.length) return applyIncomplete(state, byAgent, unknownAgents);
  }
  const rules = rulesOf(config);
  const plans = new Array<OutcomePlan>(names.length);
  for (let index = 0; index < names.length; index++) {
    plans[index] = planOutcome(
      names[index]!,
      rules[index]!,
      state.agents[names[index]!]!,
      byAgent[index]!,
    );
  }
  const agents: Record<string, AgentTerminationState> = { ...state.agents };
  const reports = new Array<AgentCheckpointReport>(names.length);
  let successful = names.length > 0;
  let plateaued = names.length > 0;
  for (let index = 0; index < names.length; index++) {
    const name = names[index]!;
    const plan = plans[index]!;
    const rule = rules[index]!;
    const next = applyPlan(rule, state.agents[name]!, plan);
    agents[name] = next;
    reports[index] = reportFor(rule, name, next, plan);
    // allSuccessful and allPlateaued, on the agents at hand instead of by name.
    const { success, plateau } = rule;
    if (
      success === null ||
      next.validEvaluations < success.minEvaluations ||
      next.successStreak < success.consecutive
    ) {
      successful = false;
    }
    if (plateau === null || next.plateauPatience < plateau.patience) plateaued = false;
  }
  // Success is checked before plateau, like the seed.
  const reason = successful ? 'success' : plateaued ? 'plateau' : null;
  return {
    state: { config, agents, terminationReason: reason },
    decision: {
      control: reason === null ? 'CONTINUE' : 'STOP_PHASE',
      reason,
      report: { checkpoint: 'applied', agents: reports, unknownAgents },
    },
  };
}

let rulesConfig: TerminationConfig | null = null;
let rulesByIndex: readonly AgentTerminationRules[] = [];

/** Each agent's rules in `config.agentNames` order, kept for the last config: one lookup by name a run, not five a checkpoint. */
function rulesOf(config: TerminationConfig): readonly AgentTerminationRules[] {
  if (config !== rulesConfig) {
    rulesByIndex = config.agentNames.map((name) => config.agents[name]!);
    rulesConfig = config;
  }
  return rulesByIndex;
}

/**
 * Whether `outcomes` holds exactly one outcome per configured agent, in the
 * config's order (the usual checkpoint): it then serves as its own grouping.
 */
function inConfigOrder(names: readonly string[], outcomes: readonly unknown[]): boolean {
  if (!Array.isArray(outcomes) || outcomes.length !== names.length) return false;
  for (let index = 0; index < names.length; index++) {
    const outcome: unknown = outcomes[index];
    if (typeof outcome !== 'object' || outcome === null || Array.isArray(outcome)) return false;
    if ((outcome as Record<string, unknown>).agentName !== names[index]) return false;
  }
  return true;
}

/** Outcomes by the index of their agent in `config.agentNames`; `found` counts the agents present. */
function groupByAgent(
  config: TerminationConfig,
  outcomes: readonly unknown[],
): {
  byAgent: (Readonly<Record<string, unknown>> | undefined)[];
  found: number;
  unknownAgents: readonly string[];
} {
  if (!Array.isArray(outcomes)) {
    throw new InvalidOutcomeError('checkpoint outcomes must be a list of outcomes');
  }
  const names = config.agentNames;
  const byAgent = new Array<Readonly<Record<string, unknown>> | undefined>(names.length);
  let found = 0;
  let unknownAgents: string[] | null = null;
  for (let index = 0; index < outcomes.length; index++) {
    const outcome: unknown = outcomes[index];
    if (typeof outcome !== 'object' || outcome === null || Array.isArray(outcome)) {
      throw new InvalidOutcomeError(`outcomes[${index}] must be a mapping`);
    }
    const agentName = (outcome as Record<string, unknown>).agentName;
    const at =
      typeof agentName === 'string' && Object.hasOwn(config.agents, agentName)
        ? names.indexOf(agentName)
        : -1;
    if (at < 0) {
      if (unknownAgents === null) unknownAgents = [];
      unknownAgents.push(String(agentName));
      continue;
    }
    if (byAgent[at] !== undefined) {
      throw new DuplicateAgentOutcomeError(
        `agent ${JSON.stringify(agentName)}: more than one evaluation outcome in one checkpoint`,
      );
    }
    byAgent[at] = outcome as Record<string, unknown>;
    found++;
  }
  return { byAgent, found, unknownAgents: unknownAgents ?? NO_AGENTS };
}

/** The usual `unknownAgents`: one shared, frozen empty list instead of one per checkpoint. */
const NO_AGENTS: readonly string[] = Object.freeze([]);

function applyIncomplete(
  state: TerminationState,
  byAgent: readonly unknown[],
  unknownAgents: readonly string[],
): { state: TerminationState; decision: CheckpointDecision } {
  const { config } = state;
  const agents = { ...state.agents };
  const reports: AgentCheckpointReport[] = [];
  for (const [index, name] of config.agentNames.entries()) {
    const present = byAgent[index] !== undefined;
    let agent = state.agents[name]!;
    if (!present && agent.successStreak !== 0) agent = { ...agent, successStreak: 0 };
    agents[name] = agent;
    const plateau = config.agents[name]?.plateau ?? null;
    reports.push(
      present
        ? agentReport(plateau, name, agent, 'ignored', 'incomplete checkpoint', null, null, null)
        : agentReport(plateau, name, agent, 'missing', 'missing agent outcome', null, null, null),
    );
  }
  return {
    state: { config, agents, terminationReason: state.terminationReason },
    decision: {
      control: 'CONTINUE',
      reason: null,
      report: { checkpoint: 'incomplete', agents: reports, unknownAgents },
    },
  };
}

function applyPlan(
  rule: AgentTerminationRules,
  agent: AgentTerminationState,
  plan: OutcomePlan,
): AgentTerminationState {
  if (plan.kind === 'duplicate') return agent;
  if (plan.kind === 'missingIdentity') {
    return agent.successStreak === 0 ? agent : { ...agent, successStreak: 0 };
  }
  const { seen } = plan;
  const seenCount = agent.seenCount + 1;
  if (!plan.valid) {
    return {
      lastEvaluation: plan.episode,
      seen,
      seenCount,
      validEvaluations: agent.validEvaluations,
      plateauWindow: agent.plateauWindow,
      successStreak: 0,
      plateauPatience: agent.plateauPatience,
      bestMetric: agent.bestMetric,
      bestEvaluationId: agent.bestEvaluationId,
    };
  }
  const { success, plateau } = rule;
  const validEvaluations = agent.validEvaluations + 1;
  let { successStreak, plateauPatience, bestMetric, bestEvaluationId, plateauWindow } = agent;
  if (success !== null && plan.successValue !== null) {
    successStreak = qualifiesForSuccess(plan.successValue, success) ? successStreak + 1 : 0;
  }
  if (plateau !== null && plan.plateauValue !== null) {
    plateauWindow = slide(plateauWindow, plan.plateauValue, plateau.window);
    const smoothed = smoothedOf(plateauWindow, plateau.window);
    if (smoothed !== null) {
      if (isImprovement(smoothed, bestMetric, plateau)) {
        bestMetric = smoothed;
        bestEvaluationId = plan.evaluationId;
        plateauPatience = 0;
      } else if (validEvaluations >= plateau.minEvaluations) {
        plateauPatience += 1;
      }
    }
  }
  return {
    lastEvaluation: plan.episode,
    seen,
    seenCount,
    validEvaluations,
    plateauWindow,
    successStreak,
    plateauPatience,
    bestMetric,
    bestEvaluationId,
  };
}

/**
 * The window with `value` added and the oldest value dropped once full: one
 * copy at its final size that keeps the array's unboxed doubles (a
 * `new Array(n)` starts as small integers and is copied again on the first
 * double; a pushed-to copy carries slack).
 */
function slide(window: readonly number[], value: number, size: number): number[] {
  if (window.length < size) return window.concat(value);
  const next = window.slice(window.length - size);
  for (let index = 0; index < size - 1; index++) next[index] = next[index + 1]!;
  next[size - 1] = value;
  return next;
}

function reportFor(
  rule: AgentTerminationRules,
  name: string,
  agent: AgentTerminationState,
  plan: OutcomePlan,
): AgentCheckpointReport {
  if (plan.kind === 'missingIdentity') {
    return agentReport(
      rule.plateau,
      name,
      agent,
      'invalid',
      'missing evaluation identity',
      null,
      null,
      null,
    );
  }
  const episode = typeof plan.episode === 'number' ? plan.episode : null;
  if (plan.kind === 'duplicate') {
    return agentReport(
      rule.plateau,
      name,
      agent,
      'duplicate',
      null,
      plan.evaluationId,
      episode,
      null,
    );
  }
  return agentReport(
    rule.plateau,
    name,
    agent,
    plan.valid ? 'accepted' : 'invalid',
    plan.valid ? null : 'missing or non-finite configured metric',
    plan.evaluationId,
    episode,
    plan.successValue,
  );
}

/**
 * {@link smoothedMetric}, remembered for the last window it was asked of
 * (windows are never changed): the report asks again of the window just slid.
 */
function smoothedOf(window: readonly number[], size: number): number | null {
  if (window !== smoothedWindow || size !== smoothedSize) {
    smoothedWindow = window;
    smoothedSize = size;
    smoothedValue = smoothedMetric(window, size);
  }
  return smoothedValue;
}

let smoothedWindow: readonly number[] | null = null;
let smoothedSize = 0;
let smoothedValue: number | null = null;

/** One report line, built as one literal so every report has the same shape. */
function agentReport(
  plateau: PlateauRule | null,
  name: string,
  agent: AgentTerminationState,
  status: AgentOutcomeStatus,
  detail: string | null,
  evaluationId: string | null,
  evaluationEpisode: number | null,
  successValue: number | null,
): AgentCheckpointReport {
  return {
    agentName: name,
    status,
    detail,
    evaluationId,
    evaluationEpisode,
    successValue,
    smoothedValue: plateau === null ? null : smoothedOf(agent.plateauWindow, plateau.window),
    validEvaluations: agent.validEvaluations,
    successStreak: agent.successStreak,
    plateauPatience: agent.plateauPatience,
    bestMetric: agent.bestMetric,
  };
}
