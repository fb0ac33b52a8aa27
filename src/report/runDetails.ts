import { trainingEpisodesThrough } from '../domain/shared/episodeCounts.js';
import { isPlainObject, type JsonValue } from '../domain/shared/json.js';
import type {
  RemoteComponentRecord,
  ResumeRecord,
  RunRecord,
  RunStore,
} from '../ports/store/store.js';
import { phaseOverview, selectorChanges } from './recordViews.js';
import type { PhaseOverview, SelectorChange } from './reportTypes.js';
import { type RunActivity, runActivity } from './runActivity.js';

/** One phase in `arena show`: its episode counts and mean returns. */
export interface PhaseDetails extends PhaseOverview {
  readonly trainingEpisodes: number;
  /** Mean return of the training episodes; `null` without any. */
  readonly meanReturn: number | null;
  readonly evaluationEpisodes: number;
  readonly evaluationMeanReturn: number | null;
}

/** One evaluation checkpoint in `arena show`. */
export interface CheckpointDetails {
  readonly phaseIndex: number;
  readonly checkpointIndex: number;
  /** The phase episode (evaluation episodes counted) it came after. */
  readonly afterEpisode: number;
  /** The training (or test) episodes of the phase finished by then: what arena prints. */
  readonly afterTrainingEpisodes: number;
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
export interface MetaDecisionDetails {
  readonly phaseIndex: number;
  readonly startRequest: number;
  readonly environmentUid: string;
  readonly agentName: string;
  /** Baseline → candidate per selector UID, or `null` when the record has no such maps. */
  readonly changes: readonly SelectorChange[] | null;
  readonly record: JsonValue;
}

/** One `--resume` in `arena show`: the stored record, and its point as a training-episode count. */
export interface ResumeDetails extends ResumeRecord {
  /** Training (or test) episodes of the phase finished at the resume point. */
  readonly afterTrainingEpisodes: number;
}

/** Everything `arena show` prints about one run: its records as they are, without the HTML report's analysis. */
export interface RunDetails {
  readonly run: Omit<RunRecord, 'runFile'>;
  /** Whether anyone still runs it: a `running` run whose runner is gone is `interrupted`. */
  readonly activity: RunActivity;
  readonly phases: readonly PhaseDetails[];
  readonly checkpoints: readonly CheckpointDetails[];
  readonly metaDecisions: readonly MetaDecisionDetails[];
  readonly snapshots: number;
  /** Every `--resume` of the run, oldest first, with the training episodes its phase had kept. */
  readonly resumes: readonly ResumeDetails[];
  /** Which instance of which service served each `nats:` component, in the order they were opened. */
  readonly remoteComponents: readonly RemoteComponentRecord[];
}

/**
 * One stored run as `arena show` summarises it. Throws `RunNotFoundError` for an unknown id.
 *
 * @example
 * ```ts
 * runDetails(store, 'grid-demo-20261129T200702-3fa2').phases[0];
 * // { phaseIndex: 0, name: 'train', mode: 'train', status: 'done', terminationReason: 'success',
 * //   trainingEpisodes: 4, meanReturn: 4.5, evaluationEpisodes: 2, evaluationMeanReturn: 2 }
 * ```
 */
export function runDetails(store: RunStore, runId: string): RunDetails {
  const { runFile: _runFile, ...run } = store.getRun(runId);
  const summaries = store.episodeSummary(runId);
  const phaseEpisodes = new Map<number, ReturnType<RunStore['episodes']>>();
  // positions are printed as training-episode counts: each phase's stored episodes, read once
  const trainingThrough = (phaseIndex: number, episode: number) => {
    if (!phaseEpisodes.has(phaseIndex)) {
      phaseEpisodes.set(phaseIndex, store.episodes(runId, phaseIndex));
    }
    return trainingEpisodesThrough(phaseEpisodes.get(phaseIndex) ?? [], episode);
  };
  const summaryOf = (phaseIndex: number, evaluation: boolean) =>
    summaries.find(
      (summary) => summary.phaseIndex === phaseIndex && summary.evaluation === evaluation,
    );
  return {
    run,
    activity: runActivity(run),
    phases: store.phases(runId).map((phase) => {
      const training = summaryOf(phase.phaseIndex, false);
      const evaluation = summaryOf(phase.phaseIndex, true);
      return {
        ...phaseOverview(phase),
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
        afterTrainingEpisodes: trainingThrough(checkpoint.phaseIndex, checkpoint.afterEpisode),
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
    resumes: store.resumes(runId).map((resume) => ({
      ...resume,
      afterTrainingEpisodes: trainingThrough(resume.phaseIndex, resume.episode),
    })),
    remoteComponents: store.remoteComponents(runId),
  };
}

function metricsOf(outcomes: JsonValue): CheckpointDetails['metrics'] {
  if (!Array.isArray(outcomes)) return null;
  const metrics: Array<{ agentName: string; metrics: JsonValue }> = [];
  for (const outcome of outcomes) {
    if (!isPlainObject(outcome) || typeof outcome.agentName !== 'string') return null;
    if (outcome.metrics === undefined) return null;
    metrics.push({ agentName: outcome.agentName, metrics: outcome.metrics });
  }
  return metrics;
}

/** Only a record with both maps has changes: any other is shown as it is. */
function changesOf(record: JsonValue): MetaDecisionDetails['changes'] {
  if (!isPlainObject(record)) return null;
  const { baseline, candidate } = record;
  if (!isPlainObject(baseline) || !isPlainObject(candidate)) return null;
  return selectorChanges(record, baseline, candidate);
}
