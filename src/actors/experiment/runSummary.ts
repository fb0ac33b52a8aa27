import { trainingEpisodesThrough } from '../../domain/shared/episodeCounts.js';
import { mean } from '../../domain/shared/mean.js';
import type { MetaDecision } from '../../machines/metaTurnTypes.js';
import type { CompletedEpisode } from '../../machines/simulationControllerTypes.js';
import type {
  EpisodeRecord,
  MetaDecisionRecord,
  PhaseRecord,
  RunStatus,
  RunStore,
} from '../../ports/store/store.js';

/** How a phase ended. */
export type PhaseOutcomeStatus = 'done' | 'failed' | 'cancelled';

/** A phase as the closing summary tells it. */
export interface PhaseSummary {
  readonly index: number;
  readonly name: string;
  readonly mode: string;
  readonly status: PhaseOutcomeStatus;
  readonly reason: string | null;
  /** Training or test episodes (evaluation episodes not counted). */
  readonly episodes: number;
  readonly evaluationEpisodes: number;
  readonly meanReturn: number | null;
  /** Mean return of each loop agent over the training or test episodes. */
  readonly meanReturnsByAgent: Readonly<Record<string, number>>;
  readonly checkpoints: readonly {
    readonly index: number;
    /** The phase episode (evaluation episodes counted) the checkpoint came after. */
    readonly afterEpisode: number;
    /** The training (or test) episodes finished by then: what arena prints. */
    readonly afterTrainingEpisodes: number;
    readonly status: string;
    readonly metrics: Readonly<Record<string, Readonly<Record<string, number>>>>;
    readonly control: string | null;
    readonly reason: string | null;
  }[];
  readonly metaDecision: MetaDecision | null;
  /**
   * The repeated meta loop's decisions, in order, when the phase made more
   * than one (absent otherwise): where each took over and what it returned.
   */
  readonly metaLoop?: readonly MetaLoopDecision[];
  readonly error: string | null;
}

/** One decision of the repeated meta loop, against the episodes it ran. */
export interface MetaLoopDecision {
  readonly startRequest: number;
  /** The phase episode (evaluation episodes counted) the decision's world started with. */
  readonly firstEpisode: number;
  /** The 1-based training (or test) episode it started with: what arena prints. */
  readonly firstTrainingEpisode: number;
  readonly candidate: Readonly<Record<string, number>>;
  /** Training or test episodes the decision's world ran, and their mean return. */
  readonly episodes: number;
  readonly meanReturn: number | null;
  /** The mean return of its evaluation episodes, or `null` when it ran none. */
  readonly evaluationMeanReturn: number | null;
}

/** A finished run's summary: its id, status and each phase's outcome. */
export interface RunSummary {
  readonly runId: string;
  readonly uid: string;
  readonly seed: number;
  readonly status: Exclude<RunStatus, 'running'>;
  readonly error: string | null;
  readonly phases: readonly PhaseSummary[];
}

/**
 * A phase's summary, read from its stored records: the same whether the phase
 * ran in one go or was resumed any number of times.
 *
 * @example
 * ```ts
 * summarizeStoredPhase(store, store.phases(runId)[0]!);
 * // { index: 0, name: 'train', mode: 'train', status: 'done', reason: 'success', episodes: 8, ... }
 * ```
 */
export function summarizeStoredPhase(store: RunStore, phase: PhaseRecord): PhaseSummary {
  const stored = store.episodes(phase.runId, phase.phaseIndex);
  const counted = stored.filter((episode) => !episode.evaluation);
  const episodes = counted.length;
  const evaluationEpisodes = stored.length - episodes;
  const agents = [...new Set(counted.flatMap((episode) => Object.keys(returnsOf(episode))))];
  const checkpoints = store.checkpoints(phase.runId, phase.phaseIndex).map((checkpoint) => {
    const metrics: Record<string, Record<string, number>> = {};
    for (const outcome of checkpoint.outcomes as unknown as readonly StoredOutcome[]) {
      metrics[outcome.agentName] = { ...outcome.metrics };
    }
    const decision = checkpoint.decision as { control?: string; reason?: string | null } | null;
    return {
      index: checkpoint.checkpointIndex,
      afterEpisode: checkpoint.afterEpisode,
      afterTrainingEpisodes: trainingEpisodesThrough(stored, checkpoint.afterEpisode),
      status: checkpoint.status,
      metrics,
      control: decision?.control ?? null,
      reason: decision?.reason ?? null,
    };
  });
  const decisions = store
    .metaDecisions(phase.runId)
    .filter((decision) => decision.phaseIndex === phase.phaseIndex);
  return {
    index: phase.phaseIndex,
    name: phase.name,
    mode: phase.mode,
    status: phase.status === 'running' ? 'failed' : phase.status,
    reason: phase.terminationReason,
    episodes,
    evaluationEpisodes,
    meanReturn: mean(counted.map((episode) => episode.episodeReturn)),
    meanReturnsByAgent: Object.fromEntries(
      agents.map((agent) => [
        agent,
        // an episode without the agent counts as 0, as in the episode's total
        mean(counted.map((episode) => agentReturn(episode, agent))) ?? 0,
      ]),
    ),
    checkpoints,
    metaDecision: (decisions.at(-1)?.record ?? null) as unknown as MetaDecision | null,
    ...(decisions.length > 1 ? { metaLoop: metaLoopOf(decisions, stored) } : {}),
    error: phase.error,
  };
}

function metaLoopOf(
  decisions: readonly MetaDecisionRecord[],
  stored: readonly EpisodeRecord[],
): MetaLoopDecision[] {
  return decisions.map((decision, index) => {
    const next = decisions[index + 1]?.firstEpisode ?? Number.POSITIVE_INFINITY;
    const span = stored.filter(
      (episode) => episode.episode >= decision.firstEpisode && episode.episode < next,
    );
    const training = span.filter((episode) => !episode.evaluation);
    const evaluation = span.filter((episode) => episode.evaluation);
    const returns = (episodes: readonly EpisodeRecord[]) =>
      episodes.map((episode) => episode.episodeReturn);
    return {
      startRequest: decision.startRequest,
      firstEpisode: decision.firstEpisode,
      firstTrainingEpisode: trainingEpisodesThrough(stored, decision.firstEpisode - 1) + 1,
      candidate: (decision.record as unknown as MetaDecision).candidate,
      episodes: training.length,
      meanReturn: mean(returns(training)),
      evaluationMeanReturn: mean(returns(evaluation)),
    };
  });
}

/**
 * The closing summary of a run, read from the store: every phase the run has
 * recorded, from its first start through every resume.
 *
 * @example
 * ```ts
 * summarizeStoredRun(store, runId, { status: 'succeeded', error: null }).phases.length; // 7
 * ```
 */
export function summarizeStoredRun(
  store: RunStore,
  runId: string,
  outcome: { readonly status: RunSummary['status']; readonly error: string | null },
): RunSummary {
  const run = store.getRun(runId);
  return {
    runId,
    uid: run.uid,
    seed: run.seed,
    status: outcome.status,
    error: outcome.error,
    phases: store.phases(runId).map((phase) => summarizeStoredPhase(store, phase)),
  };
}

function returnsOf(episode: EpisodeRecord): Readonly<Record<string, number>> {
  return episode.returnsByAgent as Record<string, number>;
}

function agentReturn(episode: EpisodeRecord, agent: string): number {
  return returnsOf(episode)[agent] ?? 0;
}

interface StoredOutcome {
  readonly agentName: string;
  readonly metrics: Readonly<Record<string, number>>;
}

/** The sum of every loop agent's return in one episode. */
export function totalReturn(summary: CompletedEpisode): number {
  let total = 0;
  for (const value of Object.values(summary.returnsByAgent)) total += value;
  return total;
}
