import { isPlainObject, type JsonValue } from '../../domain/shared/json.js';
import type { ResumeRecord, RunRecord, RunStatus, RunStore } from '../../ports/store.js';

/** One line of `arena runs`. */
export interface RunListing {
  readonly runId: string;
  readonly uid: string;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly phases: number;
  /** Training and evaluation episodes of all phases. */
  readonly episodes: number;
  /** The termination reason of the last phase that has one. */
  readonly terminationReason: string | null;
  /** The worker (`arena worker --name`) holding the run's lease now, or `null`. */
  readonly worker: string | null;
}

/** One phase in `arena show`. */
export interface PhaseReport {
  readonly phaseIndex: number;
  readonly name: string;
  readonly mode: string;
  readonly status: string;
  readonly terminationReason: string | null;
  readonly trainingEpisodes: number;
  /** Mean return of the training episodes; `null` without any. */
  readonly meanReturn: number | null;
  readonly evaluationEpisodes: number;
  readonly evaluationMeanReturn: number | null;
}

/** One evaluation checkpoint in `arena show`. */
export interface CheckpointReport {
  readonly phaseIndex: number;
  readonly checkpointIndex: number;
  readonly afterEpisode: number;
  readonly status: string;
  /** The termination flow control (`CONTINUE`, `STOP_PHASE`, ...) when the decision has one. */
  readonly control: string | null;
  readonly reason: string | null;
  /** Metric values per agent, or `null` when the outcomes are not `[{ agentName, metrics }]`. */
  readonly metrics: ReadonlyArray<{ agentName: string; metrics: JsonValue }> | null;
  readonly outcomes: JsonValue;
  readonly error: JsonValue | null;
}

/** One meta decision in `arena show`. */
export interface MetaDecisionReport {
  readonly phaseIndex: number;
  readonly startRequest: number;
  readonly environmentUid: string;
  readonly agentName: string;
  /** Baseline → candidate per selector UID, or `null` when the record has no such maps. */
  readonly changes: ReadonlyArray<{
    uid: string;
    baseline: JsonValue | null;
    candidate: JsonValue | null;
  }> | null;
  readonly record: JsonValue;
}

/** Everything `arena show` prints about one run. */
export interface RunReport {
  readonly run: Omit<RunRecord, 'runFile'>;
  readonly phases: readonly PhaseReport[];
  readonly checkpoints: readonly CheckpointReport[];
  readonly metaDecisions: readonly MetaDecisionReport[];
  readonly snapshots: number;
  /** Every `--resume` of the run, oldest first. */
  readonly resumes: readonly ResumeRecord[];
}

/**
 * The newest runs of a store, as `arena runs` lists them.
 *
 * @example
 * ```ts
 * listRunOverviews(store, 1);
 * // [{ runId: 'grid-demo-20261129T200702-3fa2', uid: 'grid-demo', status: 'succeeded',
 * //    startedAt: '2026-11-29T20:07:02.000Z', phases: 1, episodes: 6, terminationReason: 'success' }]
 * ```
 */
export function listRunOverviews(store: RunStore, limit: number): RunListing[] {
  return store.listRuns({ limit }).map((run) => {
    const phases = store.phases(run.runId);
    const episodes = store
      .episodeSummary(run.runId)
      .reduce((total, summary) => total + summary.count, 0);
    const reasons = phases.flatMap((phase) =>
      phase.terminationReason === null ? [] : [phase.terminationReason],
    );
    return {
      runId: run.runId,
      uid: run.uid,
      status: run.status,
      startedAt: run.startedAt,
      phases: phases.length,
      episodes,
      terminationReason: reasons.at(-1) ?? null,
      worker: run.lease?.owner.worker ?? null,
    };
  });
}

/**
 * Summarise one run for `arena show`. Throws `RunNotFoundError` for an unknown id.
 *
 * @example
 * ```ts
 * reportRun(store, 'grid-demo-20261129T200702-3fa2').phases[0];
 * // { phaseIndex: 0, name: 'train', mode: 'train', status: 'done', terminationReason: 'success',
 * //   trainingEpisodes: 4, meanReturn: 4.5, evaluationEpisodes: 2, evaluationMeanReturn: 2 }
 * ```
 */
export function reportRun(store: RunStore, runId: string): RunReport {
  const { runFile: _runFile, ...run } = store.getRun(runId);
  const summaries = store.episodeSummary(runId);
  const summaryOf = (phaseIndex: number, evaluation: boolean) =>
    summaries.find(
      (summary) => summary.phaseIndex === phaseIndex && summary.evaluation === evaluation,
    );
  return {
    run,
    phases: store.phases(runId).map((phase) => {
      const training = summaryOf(phase.phaseIndex, false);
      const evaluation = summaryOf(phase.phaseIndex, true);
      return {
        phaseIndex: phase.phaseIndex,
        name: phase.name,
        mode: phase.mode,
        status: phase.status,
        terminationReason: phase.terminationReason,
        trainingEpisodes: training?.count ?? 0,
        meanReturn: training?.meanReturn ?? null,
        evaluationEpisodes: evaluation?.count ?? 0,
        evaluationMeanReturn: evaluation?.meanReturn ?? null,
      };
    }),
    checkpoints: store.checkpoints(runId).map((checkpoint) => {
      const decision = isPlainObject(checkpoint.decision) ? checkpoint.decision : {};
      return {
        phaseIndex: checkpoint.phaseIndex,
        checkpointIndex: checkpoint.checkpointIndex,
        afterEpisode: checkpoint.afterEpisode,
        status: checkpoint.status,
        control: typeof decision.control === 'string' ? decision.control : null,
        reason: typeof decision.reason === 'string' ? decision.reason : null,
        metrics: metricsOf(checkpoint.outcomes),
        outcomes: checkpoint.outcomes,
        error: checkpoint.error,
      };
    }),
    metaDecisions: store.metaDecisions(runId).map((decision) => ({
      phaseIndex: decision.phaseIndex,
      startRequest: decision.startRequest,
      environmentUid: decision.environmentUid,
      agentName: decision.agentName,
      changes: changesOf(decision.record),
      record: decision.record,
    })),
    snapshots: store.snapshotCount(runId),
    resumes: store.resumes(runId),
  };
}

function metricsOf(outcomes: JsonValue): CheckpointReport['metrics'] {
  if (!Array.isArray(outcomes)) return null;
  const metrics: Array<{ agentName: string; metrics: JsonValue }> = [];
  for (const outcome of outcomes) {
    if (!isPlainObject(outcome) || typeof outcome.agentName !== 'string') return null;
    if (outcome.metrics === undefined) return null;
    metrics.push({ agentName: outcome.agentName, metrics: outcome.metrics });
  }
  return metrics;
}

function changesOf(record: JsonValue): MetaDecisionReport['changes'] {
  if (!isPlainObject(record)) return null;
  const { baseline, candidate } = record;
  if (!isPlainObject(baseline) || !isPlainObject(candidate)) return null;
  // interface order: stored JSON sorts object keys, so the decision keeps the order apart
  const order = Array.isArray(record.selectorOrder) ? record.selectorOrder.map(String) : [];
  const uids = [...new Set([...order, ...Object.keys(baseline), ...Object.keys(candidate)])];
  return uids.map((uid) => ({
    uid,
    baseline: baseline[uid] ?? null,
    candidate: candidate[uid] ?? null,
  }));
}
