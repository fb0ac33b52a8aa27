import type { JsonValue } from '../../../src/domain/shared/json.js';
import type {
  CheckpointRecord,
  CheckpointStatus,
  PhaseRecord,
} from '../../../src/ports/store/store.js';

/** One agent's line of a stored checkpoint report; unset fields take quiet defaults. */
export function agentReport(fields: Record<string, JsonValue>): JsonValue {
  return {
    agentName: 'operator',
    status: 'accepted',
    detail: null,
    evaluationId: null,
    evaluationEpisode: null,
    successValue: null,
    smoothedValue: null,
    validEvaluations: 0,
    successStreak: 0,
    plateauPatience: 0,
    bestMetric: null,
    ...fields,
  };
}

/** A stored checkpoint with the given outcomes' metrics and decision. */
export function checkpoint(
  checkpointIndex: number,
  fields: {
    metrics?: Record<string, Record<string, JsonValue>>;
    agents?: JsonValue[];
    control?: 'CONTINUE' | 'STOP_PHASE';
    reason?: string | null;
    status?: CheckpointStatus;
  } = {},
): CheckpointRecord {
  const metrics = fields.metrics ?? {};
  return {
    runId: 'r',
    phaseIndex: 0,
    checkpointIndex,
    afterEpisode: (checkpointIndex + 1) * 3,
    outcomes: Object.entries(metrics).map(([agentName, values]) => ({
      agentName,
      evaluationId: `train:${checkpointIndex}`,
      evaluationEpisode: checkpointIndex,
      metrics: values,
    })),
    status: fields.status ?? 'accepted',
    decision: {
      control: fields.control ?? 'CONTINUE',
      reason: fields.reason ?? null,
      report: { checkpoint: 'applied', agents: fields.agents ?? [], unknownAgents: [] },
    },
    error: null,
  };
}

/** A finished phase of run `r`. */
export function phaseRecord(fields: Partial<PhaseRecord> = {}): PhaseRecord {
  return {
    runId: 'r',
    phaseIndex: 0,
    name: 'train',
    mode: 'train',
    status: 'done',
    terminationReason: null,
    episodes: 0,
    error: null,
    startedAt: '2026-11-29T20:00:00.000Z',
    endedAt: '2026-11-29T20:01:00.000Z',
    ...fields,
  };
}
