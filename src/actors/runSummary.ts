import type { PhaseSpec } from '../config/runSpec.js';
import type { MetaDecision } from '../machines/metaTurnTypes.js';
import type { CheckpointVerdict, CompletedEpisode } from '../machines/simulationControllerTypes.js';
import type { RunStatus } from '../ports/store.js';

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
    readonly afterEpisode: number;
    readonly status: string;
    readonly metrics: Readonly<Record<string, Readonly<Record<string, number>>>>;
    readonly control: string | null;
    readonly reason: string | null;
  }[];
  readonly metaDecision: MetaDecision | null;
  readonly error: string | null;
}

export interface RunSummary {
  readonly runId: string;
  readonly uid: string;
  readonly seed: number;
  readonly status: Exclude<RunStatus, 'running'>;
  readonly error: string | null;
  readonly phases: readonly PhaseSummary[];
}

/** Keeps what the summary needs as the controller's events arrive. */
export class PhaseTracker {
  episodes = 0;
  ordinal = 0;
  evaluationEpisodes = 0;
  private returnSum = 0;
  private readonly agentReturnSums: Record<string, number> = {};
  readonly checkpoints: PhaseSummary['checkpoints'][number][] = [];
  metaDecision: MetaDecision | null = null;

  constructor(private readonly phase: PhaseSpec) {}

  episode(summary: CompletedEpisode): void {
    this.ordinal = summary.ordinal;
    if (summary.evaluation) {
      this.evaluationEpisodes++;
      return;
    }
    this.episodes++;
    this.returnSum += totalReturn(summary);
    for (const [agent, value] of Object.entries(summary.returnsByAgent)) {
      this.agentReturnSums[agent] = (this.agentReturnSums[agent] ?? 0) + value;
    }
  }

  checkpoint(verdict: CheckpointVerdict): void {
    const metrics: Record<string, Record<string, number>> = {};
    for (const outcome of verdict.outcomes) metrics[outcome.agentName] = { ...outcome.metrics };
    const decision = verdict.decision as { control?: string; reason?: string | null } | null;
    this.checkpoints.push({
      index: verdict.index,
      afterEpisode: verdict.afterEpisode,
      status: verdict.status,
      metrics,
      control: decision?.control ?? null,
      reason: decision?.reason ?? null,
    });
  }

  summary(status: PhaseOutcomeStatus, reason: string | null, error: string | null): PhaseSummary {
    return {
      index: this.phase.index,
      name: this.phase.name,
      mode: this.phase.phaseConfig.mode,
      status,
      reason,
      episodes: this.episodes,
      evaluationEpisodes: this.evaluationEpisodes,
      meanReturn: this.episodes > 0 ? this.returnSum / this.episodes : null,
      meanReturnsByAgent: Object.fromEntries(
        Object.entries(this.agentReturnSums).map(([agent, sum]) => [agent, sum / this.episodes]),
      ),
      checkpoints: this.checkpoints,
      metaDecision: this.metaDecision,
      error,
    };
  }
}

/** The sum of every loop agent's return in one episode. */
export function totalReturn(summary: CompletedEpisode): number {
  let total = 0;
  for (const value of Object.values(summary.returnsByAgent)) total += value;
  return total;
}
