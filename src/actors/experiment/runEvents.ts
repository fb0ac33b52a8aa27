import type { MetaDecision } from '../../machines/metaTurnTypes.js';
import type {
  CheckpointVerdict,
  CompletedEpisode,
} from '../../machines/simulationControllerTypes.js';
import type { Logger } from '../../ports/runtime/logger.js';
import type { PhaseOutcomeStatus, RunSummary } from './runSummary.js';

/** What happened, as it happens: for progress bars and logs. */
export type RunEvent =
  | { type: 'run.started'; runId: string; uid: string; phases: readonly string[]; resumed: boolean }
  | {
      type: 'phase.started';
      phaseIndex: number;
      name: string;
      mode: string;
      episodes: number | null;
    }
  | { type: 'meta.decided'; phaseIndex: number; decision: MetaDecision }
  | { type: 'episode.completed'; phaseIndex: number; summary: CompletedEpisode }
  | { type: 'checkpoint.completed'; phaseIndex: number; verdict: CheckpointVerdict }
  | {
      type: 'phase.finished';
      phaseIndex: number;
      status: PhaseOutcomeStatus;
      reason: string | null;
      episodes: number;
    }
  | { type: 'run.finished'; summary: RunSummary }
  /** A sweep's trial reached the checkpoint count it holds at: handed back at that barrier, to wait for its rung's decision. */
  | { type: 'run.held'; runId: string; checkpoints: number };

/** One info line per run event (debug for episodes), for `--log-level info`. */
export function logEvent(logger: Logger, event: RunEvent): void {
  switch (event.type) {
    case 'run.started':
      logger.info(
        { runId: event.runId, phases: event.phases, resumed: event.resumed },
        'run started',
      );
      return;
    case 'phase.started':
      logger.info(
        { phase: event.name, mode: event.mode, episodes: event.episodes },
        'phase started',
      );
      return;
    case 'meta.decided':
      logger.info(
        {
          agent: event.decision.agentName,
          baseline: event.decision.baseline,
          candidate: event.decision.candidate,
        },
        'meta decision',
      );
      return;
    case 'episode.completed':
      logger.debug({ phaseIndex: event.phaseIndex, ...event.summary }, 'episode completed');
      return;
    case 'checkpoint.completed':
      logger.info(
        {
          phaseIndex: event.phaseIndex,
          checkpoint: event.verdict.index,
          status: event.verdict.status,
          metrics: Object.fromEntries(
            event.verdict.outcomes.map((outcome) => [outcome.agentName, outcome.metrics]),
          ),
          decision: event.verdict.decision,
        },
        'evaluation checkpoint',
      );
      return;
    case 'phase.finished':
      logger.info(
        {
          phaseIndex: event.phaseIndex,
          status: event.status,
          reason: event.reason,
          episodes: event.episodes,
        },
        'phase finished',
      );
      return;
    case 'run.finished':
      logger.info({ runId: event.summary.runId, status: event.summary.status }, 'run finished');
      return;
    case 'run.held':
      logger.info({ runId: event.runId, checkpoints: event.checkpoints }, 'run held for its rung');
      return;
  }
}
