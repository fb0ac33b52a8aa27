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
  /** The study's answer across phases, when two or more phases made a meta decision. */
  readonly study: StudySummary | null;
}

/** The run's own record, without the run file text. */
export interface RunOverview {
  readonly runId: string;
  readonly uid: string;
  readonly seed: number;
  readonly status: string;
  /** For a run that has not succeeded: the sentence that opens its report; else `null`. */
  readonly unfinished: string | null;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly error: string | null;
  readonly runFilePath: string;
}

/** A phase as its record names it: position, name, mode, status and why it ended. */
export interface PhaseOverview {
  readonly phaseIndex: number;
  readonly name: string;
  readonly mode: string;
  readonly status: string;
  readonly terminationReason: string | null;
}

/** One phase: its outcome, metrics, returns, meta decisions and why it ended. */
export interface PhaseReport extends PhaseOverview {
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
  /** The one value of a metric that never changed over two or more finite points, else `null`. */
  readonly constant: number | null;
  /** What the agent's plateau rule reads, when it reads this metric. */
  readonly smoothed: SmoothedSeries | null;
}

/** A plateau rule's smoothed metric over the checkpoints, and the best it holds. */
export interface SmoothedSeries {
  readonly metric: string;
  /** How many valid values each smoothed value averages. */
  readonly window: number;
  /** `null` until the window is full. */
  readonly points: readonly MetricPoint[];
  /** The best smoothed value the rule holds at the end, where it was reached. */
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
  /** The return of each operating agent; the finite ones only. */
  readonly returnsByAgent: Readonly<Record<string, number>>;
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

/** The answer of a study that changes its design phase by phase: each phase's meta decision and outcome. */
export interface StudySummary {
  /** The selectors drawn against the outcome: numeric ones whose chosen value differs between phases. */
  readonly selectors: readonly string[];
  readonly phases: readonly StudyPhase[];
  /** Sentences computed from the phases: the best outcome, outcome per value, what the last phase kept. */
  readonly findings: readonly string[];
}

/** One phase of a study: the phase as its overview names it (its status aside), its decision and outcome. */
export interface StudyPhase extends Omit<PhaseOverview, 'status'> {
  /** The candidate value per selector UID the meta agent chose, or `null` without a decision. */
  readonly decision: Readonly<Record<string, JsonValue>> | null;
  /** The phase's outcome, or `null` without a finished episode. */
  readonly outcome: StudyOutcome | null;
}

/** A phase's outcome: the mean return of its evaluation episodes, or of all episodes without any. */
export interface StudyOutcome {
  readonly value: number;
  readonly measure: 'evaluation mean return' | 'mean return';
  readonly episodes: number;
}
