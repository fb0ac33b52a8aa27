import type { FlowControl, TerminationReason, TerminationState } from './state.js';
import { checkTerminationState, withTerminationReason } from './state.js';

/**
 * The end of one episode, as the simulation controller reports it.
 */
export interface EpisodeEnd {
  /** The episode's mode: `train` for a training rollout, `evaluate` for a deterministic evaluation rollout. */
  readonly mode: string;
  /** Episodes the phase has completed so far, this one included; compared with the `episodes` cap. */
  readonly completedEpisodes: number;
  /** Whether the environment signalled that this episode is over (the environment termination condition). */
  readonly environmentDone: boolean;
}

/** What an episode end means for the phase. */
export interface EpisodeDecision {
  readonly control: FlowControl;
  readonly reason: TerminationReason | null;
}

/**
 * The seed's `phase_flow_control` at an episode end:
 * - after any terminal reason: `STOP_PHASE` with it (the seed does this only
 *   for success and plateau; arena does it for every reason);
 * - the environment's flow is `RESTART` when it is done, else `CONTINUE`;
 * - with an `episodes` cap, reaching it (`completedEpisodes ≥ episodes`) is
 *   `STOP_PHASE` and records `max_episodes`;
 * - cap-free (`episodes: null`), an `evaluate` episode whose environment is
 *   done asks for `RESTART`: the evaluation worker pauses after exactly one
 *   evaluation rollout;
 * - otherwise the strongest flow wins (`STOP_PHASE` > `RESTART` > `CONTINUE`).
 *
 * @example
 * ```ts
 * applyEpisodeEnd(state, { episodes: 10 }, { mode: 'train', completedEpisodes: 10, environmentDone: true });
 * // { state: { ...state, terminationReason: 'max_episodes' },
 * //   decision: { control: 'STOP_PHASE', reason: 'max_episodes' } }
 * applyEpisodeEnd(state, { episodes: null }, { mode: 'evaluate', completedEpisodes: 3, environmentDone: true });
 * // { state, decision: { control: 'RESTART', reason: null } }
 * ```
 */
export function applyEpisodeEnd(
  state: TerminationState,
  phase: { readonly episodes: number | null } | null | undefined,
  episodeEnd: EpisodeEnd,
): { state: TerminationState; decision: EpisodeDecision } {
  checkTerminationState(state, 'applyEpisodeEnd');
  if (state.terminationReason !== null) {
    return { state, decision: { control: 'STOP_PHASE', reason: state.terminationReason } };
  }
  const environmentFlow: FlowControl = episodeEnd.environmentDone ? 'RESTART' : 'CONTINUE';
  const cap = phase?.episodes ?? null;
  if (cap !== null && episodeEnd.completedEpisodes >= cap) {
    const next = withTerminationReason(state, 'max_episodes');
    return { state: next, decision: { control: 'STOP_PHASE', reason: 'max_episodes' } };
  }
  const isEvaluation = episodeEnd.mode.toLowerCase() === 'evaluate';
  if (isEvaluation && cap === null && episodeEnd.environmentDone) {
    return { state, decision: { control: 'RESTART', reason: null } };
  }
  return { state, decision: { control: environmentFlow, reason: null } };
}
