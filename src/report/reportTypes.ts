import type { JsonValue } from '../domain/shared/json.js';
import type { SuccessDirection } from '../domain/termination/config.js';

/**
 * Everything a run report shows, as plain JSON read from the run store. The
 * HTML page is drawn from this alone, so a test can check the numbers without
 * a browser.
 */
export interface RunReport {
  readonly run: RunOverview;
  /** Why the rules could not be read from the stored run file, or `null` when they were. */
  readonly rulesNote: string | null;
  readonly phases: readonly PhaseReport[];
}

/** The run's own record, without the run file text. */
export interface RunOverview {
  readonly runId: string;
  readonly uid: string;
  readonly seed: number;
  readonly status: string;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly error: string | null;
  readonly runFilePath: string;
}

/** One phase: its outcome, metrics, returns, meta decisions and why it ended. */
export interface PhaseReport {
  readonly phaseIndex: number;
  readonly name: string;
  readonly mode: string;
  readonly status: string;
  readonly terminationReason: string | null;
  /** Episodes the phase ran, evaluation episodes included. */
  readonly episodes: number;
  readonly metrics: readonly MetricSeries[];
  readonly episodeReturns: readonly EpisodeReturn[];
  readonly metaDecisions: readonly MetaDecisionRows[];
  readonly termination: TerminationEvidence;
}

/** One agent's metric over the phase's evaluation checkpoints. */
export interface MetricSeries {
  readonly agentName: string;
  readonly metric: string;
  readonly points: readonly MetricPoint[];
  /** The agent's success threshold when its success rule uses this metric. */
  readonly threshold: { readonly value: number; readonly direction: SuccessDirection } | null;
  /** The best finite value: the highest, or the lowest for a metric the rules minimise. */
  readonly best: (MetricPoint & { readonly value: number }) | null;
}

/** One checkpoint's value of a metric; `null` when it was missing or not a finite number. */
export interface MetricPoint {
  readonly checkpointIndex: number;
  /** The phase episode after which the checkpoint was taken. */
  readonly afterEpisode: number;
  readonly value: number | null;
}

/** One finished episode's return. */
export interface EpisodeReturn {
  /** 1-based position among all episodes of the phase. */
  readonly episode: number;
  /** An evaluation episode (no learning) rather than a training one. */
  readonly evaluation: boolean;
  readonly episodeReturn: number;
  readonly steps: number;
}

/** One meta decision: baseline and candidate value of each selector. */
export interface MetaDecisionRows {
  readonly startRequest: number;
  readonly firstEpisode: number;
  readonly environmentUid: string;
  readonly agentName: string;
  readonly selectors: readonly SelectorChange[];
}

/** One selector of a meta decision. */
export interface SelectorChange {
  readonly uid: string;
  readonly baseline: JsonValue | null;
  readonly candidate: JsonValue | null;
}

/** Why a phase ended, and the evidence that decided it. */
export interface TerminationEvidence {
  readonly reason: string | null;
  /** One line a person reads, e.g. `success: operator objective ≥ 0.8 for 2 consecutive evaluations (0.9, 0.95), 4 valid evaluations ≥ min 2`. */
  readonly summary: string;
  /** The checkpoint whose decision ended the phase, when one did. */
  readonly decisiveCheckpoint: {
    readonly checkpointIndex: number;
    readonly afterEpisode: number;
    /** The termination report's per-agent evidence (streaks, patience, best values). */
    readonly agents: readonly JsonValue[];
  } | null;
}
