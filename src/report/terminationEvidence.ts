import { isPlainObject, type JsonValue } from '../domain/shared/json.js';
import type { AgentCheckpointReport } from '../domain/termination/checkpoint.js';
import type { PlateauRule, SuccessRule, TerminationConfig } from '../domain/termination/config.js';
import type { CheckpointRecord, EpisodeRecord, PhaseRecord } from '../ports/store/store.js';
import { formatNumber } from './formatNumber.js';
import type { TerminationEvidence } from './reportTypes.js';

/** What the evidence of one phase is read from. */
export interface PhaseHistory {
  readonly phase: PhaseRecord;
  readonly checkpoints: readonly CheckpointRecord[];
  readonly episodes: readonly EpisodeRecord[];
  readonly rules: TerminationConfig | null;
  /** The run's error message, for a failed phase. */
  readonly runError: string | null;
}

/** The fields of one agent's checkpoint report that the evidence uses, read back from stored JSON. */
type AgentEvidence = Pick<
  AgentCheckpointReport,
  | 'agentName'
  | 'successValue'
  | 'smoothedValue'
  | 'validEvaluations'
  | 'successStreak'
  | 'plateauPatience'
  | 'bestMetric'
> & {
  /** Any text a stored report holds, not only the statuses this version writes. */
  readonly status: string | null;
};

/**
 * Why a phase ended, in one line, and the checkpoint report that decided it.
 * For `success` and `plateau` the decisive checkpoint is the first applied one
 * whose decision stopped the phase with that reason; the line names each
 * agent's rule, the values that made the streak or the patience, and the valid
 * evaluations against the minimum.
 *
 * @example
 * ```ts
 * terminationEvidence({ phase, checkpoints, episodes, rules, runError: null }).summary;
 * // 'success: operator objective ≥ 0.8 for 2 consecutive evaluations (0.9, 0.95),
 * //  4 valid evaluations ≥ min 2'
 * ```
 */
export function terminationEvidence(history: PhaseHistory): TerminationEvidence {
  const { phase } = history;
  const reason = phase.terminationReason;
  if (reason === 'success' || reason === 'plateau') {
    const decisive = decisiveCheckpoint(history.checkpoints, reason);
    if (decisive === null) {
      return {
        reason,
        summary: `${reason}: no stored checkpoint decided it`,
        decisiveCheckpoint: null,
      };
    }
    const agents = reportAgents(decisive.decision);
    const lines = agents.map((agent) =>
      reason === 'success'
        ? successLine(agent, history, decisive)
        : plateauLine(agent, history, decisive),
    );
    return {
      reason,
      summary: `${reason}: ${lines.join('; ')}`,
      decisiveCheckpoint: {
        checkpointIndex: decisive.checkpointIndex,
        afterEpisode: decisive.afterEpisode,
        agents: rawReportAgents(decisive.decision),
      },
    };
  }
  return { reason, summary: otherSummary(history), decisiveCheckpoint: null };
}

function decisiveCheckpoint(
  checkpoints: readonly CheckpointRecord[],
  reason: string,
): CheckpointRecord | null {
  return (
    checkpoints.find((checkpoint) => {
      const decision = checkpoint.decision;
      return (
        checkpoint.status === 'accepted' &&
        isPlainObject(decision) &&
        decision.control === 'STOP_PHASE' &&
        decision.reason === reason
      );
    }) ?? null
  );
}

function successLine(
  agent: AgentEvidence,
  history: PhaseHistory,
  decisive: CheckpointRecord,
): string {
  const rule: SuccessRule | null = history.rules?.agents[agent.agentName]?.success ?? null;
  const values = recentListed(history, decisive, agent, 'successValue', agent.successStreak);
  if (rule === null) {
    return `${agent.agentName} success streak ${agent.successStreak} ${values}, ${agent.validEvaluations} valid evaluations`;
  }
  const comparison = rule.direction === 'greater_equal' ? '≥' : '≤';
  const required =
    agent.successStreak === rule.consecutive ? '' : ` (${rule.consecutive} required)`;
  return (
    `${agent.agentName} ${rule.metric} ${comparison} ${formatNumber(rule.threshold)} for ${agent.successStreak} ` +
    `consecutive evaluations ${values}${required}, ` +
    `${agent.validEvaluations} valid evaluations ≥ min ${rule.minEvaluations}`
  );
}

function plateauLine(
  agent: AgentEvidence,
  history: PhaseHistory,
  decisive: CheckpointRecord,
): string {
  const rule: PlateauRule | null = history.rules?.agents[agent.agentName]?.plateau ?? null;
  const values = recentListed(history, decisive, agent, 'smoothedValue', agent.plateauPatience);
  const best = agent.bestMetric === null ? 'none' : formatNumber(agent.bestMetric);
  if (rule === null) {
    return `${agent.agentName} no improvement for ${agent.plateauPatience} evaluations ${values}, best ${best}`;
  }
  return (
    `${agent.agentName} ${rule.metric} (${rule.direction}, window ${rule.window}) did not improve ` +
    `by ${formatNumber(rule.minDelta)} on its best ${best} for ${agent.plateauPatience} evaluations ${values}, ` +
    `patience ${rule.patience}; ${agent.validEvaluations} valid evaluations ≥ min ${rule.minEvaluations}`
  );
}

/**
 * An agent's values of one report field at the accepted outcomes of the
 * phase's applied checkpoints, up to and including the decisive one.
 */
function recentValues(
  checkpoints: readonly CheckpointRecord[],
  decisive: CheckpointRecord,
  agentName: string,
  field: 'successValue' | 'smoothedValue',
): number[] {
  const values: number[] = [];
  for (const checkpoint of checkpoints) {
    if (checkpoint.checkpointIndex > decisive.checkpointIndex) break;
    if (checkpoint.status === 'rejected') continue;
    const agent = reportAgents(checkpoint.decision).find((entry) => entry.agentName === agentName);
    const value = agent?.[field] ?? null;
    if (agent?.status === 'accepted' && value !== null) values.push(value);
  }
  return values;
}

/** The agent's last `count` values of `field` up to the decisive checkpoint, as `(0.9, 0.95)`. */
function recentListed(
  history: PhaseHistory,
  decisive: CheckpointRecord,
  agent: AgentEvidence,
  field: 'successValue' | 'smoothedValue',
  count: number,
): string {
  const values = recentValues(history.checkpoints, decisive, agent.agentName, field);
  return `(${(count <= 0 ? [] : values.slice(-count)).map(formatNumber).join(', ')})`;
}

function otherSummary(history: PhaseHistory): string {
  const { phase, episodes } = history;
  const training = episodes.filter((episode) => !episode.evaluation).length;
  const evaluation = episodes.length - training;
  const ran = `${training} training and ${evaluation} evaluation episodes`;
  switch (phase.terminationReason) {
    case 'max_episodes':
      return `max_episodes: the phase reached its episode cap after ${ran}`;
    case 'cancelled':
      return `cancelled: the run was cancelled after ${ran}`;
    case 'failed':
      return `failed: ${history.runError ?? 'the phase failed'} (after ${ran})`;
    case null:
      return phase.status === 'running'
        ? `the phase is still running (${ran} so far)`
        : `the phase ended (${phase.status}) without a termination reason after ${ran}`;
    default:
      return `${phase.terminationReason}: after ${ran}`;
  }
}

function rawReportAgents(decision: JsonValue): JsonValue[] {
  if (!isPlainObject(decision) || !isPlainObject(decision.report)) return [];
  const agents = decision.report.agents;
  return Array.isArray(agents) ? agents : [];
}

function reportAgents(decision: JsonValue): AgentEvidence[] {
  return rawReportAgents(decision).flatMap((entry) => {
    if (!isPlainObject(entry) || typeof entry.agentName !== 'string') return [];
    return [
      {
        agentName: entry.agentName,
        status: typeof entry.status === 'string' ? entry.status : null,
        successValue: finiteOrNull(entry.successValue),
        smoothedValue: finiteOrNull(entry.smoothedValue),
        validEvaluations: finiteOrNull(entry.validEvaluations) ?? 0,
        successStreak: finiteOrNull(entry.successStreak) ?? 0,
        plateauPatience: finiteOrNull(entry.plateauPatience) ?? 0,
        bestMetric: finiteOrNull(entry.bestMetric),
      },
    ];
  });
}

function finiteOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
