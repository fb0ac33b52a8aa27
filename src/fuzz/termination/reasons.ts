import type { TerminationConfig } from '../../domain/termination/config.js';
import type { PhaseConfiguration } from '../../domain/termination/phase.js';
import { plateauLowerBound, successLowerBound, successOutOfRange } from './bounds.js';
import type { MetricRange } from './metricRange.js';
import type { SearchSettings } from './search.js';
import { findSequence } from './search.js';
import type { MetricSequence } from './sequences.js';
import { playSequence } from './sequences.js';

/** The terminal reasons a metric sequence (or the episode cap) can bring about. */
export type FuzzedReason = 'success' | 'plateau' | 'max_episodes';

/** What the fuzzer found out about one terminal reason. */
export interface ReasonFinding {
  readonly reason: FuzzedReason;
  /** Whether the rules (or the phase) configure this reason at all. */
  readonly configured: boolean;
  readonly reachable: boolean;
  /** The fewest evaluations found that reach it. */
  readonly fewestEvaluations: number | null;
  /** The fewest evaluations the rules allow, whatever the metrics (a proof, not a search). */
  readonly lowerBound: number | null;
  /** `true` when `fewestEvaluations` equals `lowerBound`: no shorter sequence exists. */
  readonly provenMinimal: boolean;
  /** A shortest example found, shrunk by fast-check, cut at the terminating checkpoint. */
  readonly example: MetricSequence | null;
  /** One sentence on how the finding was made. */
  readonly note: string;
}

/**
 * Fuzz one checkpoint reason (`success` or `plateau`): search sequences of up
 * to `horizon` evaluations for one that reaches it, then, from the rules' lower
 * bound up, search each shorter length for a shorter one.
 *
 * @example
 * ```ts
 * fuzzCheckpointReason(config, ranges, 'plateau', 50, { runs: 200, seed: 42 });
 * // { reason: 'plateau', configured: true, reachable: true, fewestEvaluations: 4, lowerBound: 4,
 * //   provenMinimal: true, example: [{ SAC: { objective: 0 } }, …], note: '…' }
 * ```
 */
export function fuzzCheckpointReason(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
  reason: 'success' | 'plateau',
  horizon: number,
  settings: SearchSettings,
): ReasonFinding {
  const lowerBound = reason === 'success' ? successLowerBound(config) : plateauLowerBound(config);
  const base = { reason, lowerBound, provenMinimal: false, example: null, fewestEvaluations: null };
  if (lowerBound === null) {
    return { ...base, configured: false, reachable: false, note: `no agent has a ${reason} rule` };
  }
  const outOfRange = reason === 'success' ? successOutOfRange(config, ranges) : null;
  if (outOfRange !== null) {
    return { ...base, configured: true, reachable: false, note: outOfRange };
  }
  if (lowerBound > horizon) {
    return {
      ...base,
      configured: true,
      reachable: false,
      note: `the rules need at least ${lowerBound} evaluations, more than the ${horizon} searched (raise --max-evaluations, or the phase's episodes cap)`,
    };
  }
  const reaches = (sequence: MetricSequence) => playSequence(config, sequence).reason === reason;
  const found = findSequence(
    config,
    ranges,
    { minLength: 1, maxLength: horizon },
    settings,
    reaches,
  );
  if (found === null) {
    return {
      ...base,
      configured: true,
      reachable: false,
      note: `no sequence of up to ${horizon} evaluations within the ranges reached ${reason} (${settings.runs} runs and the targeted sequences)`,
    };
  }
  let example = cut(config, found);
  for (let length = lowerBound; length < example.length; length++) {
    const shorter = findSequence(
      config,
      ranges,
      { minLength: length, maxLength: length },
      settings,
      reaches,
    );
    if (shorter !== null) {
      example = cut(config, shorter);
      break;
    }
  }
  const provenMinimal = example.length === lowerBound;
  return {
    ...base,
    configured: true,
    reachable: true,
    fewestEvaluations: example.length,
    example,
    provenMinimal,
    note: provenMinimal
      ? `minimal: the rules need at least ${lowerBound} evaluations`
      : `no shorter sequence found in ${settings.runs} runs per length from ${lowerBound} (the rules' lower bound)`,
  };
}

/**
 * Fuzz `max_episodes`: with an `episodes` cap the phase runs
 * `⌊episodes / evaluate_every⌋` evaluations before the cap, and the cap is
 * reached when a sequence of that many evaluations does not terminate.
 *
 * @example
 * ```ts
 * fuzzMaxEpisodes(config, ranges, { episodes: 10, evaluateEvery: 5, … }, settings);
 * // { reason: 'max_episodes', reachable: true, fewestEvaluations: 2, example: [ … ], … }
 * ```
 */
export function fuzzMaxEpisodes(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
  phase: PhaseConfiguration | null,
  settings: SearchSettings,
  phaseOrigin: string | null = null,
): ReasonFinding {
  const base = {
    reason: 'max_episodes' as const,
    lowerBound: null,
    provenMinimal: false,
    example: null,
    fewestEvaluations: null,
  };
  if (phase === null || phase.episodes === null) {
    return {
      ...base,
      configured: false,
      reachable: false,
      note:
        phaseOrigin === null
          ? 'no episodes cap: the rules file has no phase.episodes'
          : `no episodes cap: ${phaseOrigin} sets no episodes`,
    };
  }
  const evaluations = evaluationsBeforeCap(phase);
  const capNote = `phase.episodes ${phase.episodes} allows ${evaluations} evaluation${evaluations === 1 ? '' : 's'}${phase.evaluateEvery === null ? '' : ` (one every ${phase.evaluateEvery} episodes)`}`;
  if (evaluations === 0) {
    return {
      ...base,
      configured: true,
      reachable: true,
      fewestEvaluations: 0,
      lowerBound: 0,
      provenMinimal: true,
      example: [],
      note: `${capNote}: nothing can end the phase earlier`,
    };
  }
  const found = findSequence(
    config,
    ranges,
    { minLength: evaluations, maxLength: evaluations },
    settings,
    (sequence) => playSequence(config, sequence).reason === null,
  );
  if (found === null) {
    return {
      ...base,
      configured: true,
      reachable: false,
      note: `${capNote}, and every sequence tried ended the phase before them`,
    };
  }
  return {
    ...base,
    configured: true,
    reachable: true,
    fewestEvaluations: evaluations,
    lowerBound: evaluations,
    provenMinimal: true,
    example: found,
    note: `${capNote}; this sequence ends none of the rules before the cap`,
  };
}

/**
 * The evaluations a capped phase runs before its cap: one every
 * `evaluate_every` episodes, none without `evaluate_every`.
 *
 * @example
 * ```ts
 * evaluationsBeforeCap({ mode: 'train', worker: 1, episodes: 12, evaluateEvery: 5 }); // 2
 * ```
 */
export function evaluationsBeforeCap(phase: PhaseConfiguration): number {
  if (phase.episodes === null || phase.evaluateEvery === null) return 0;
  return Math.floor(phase.episodes / phase.evaluateEvery);
}

function cut(config: TerminationConfig, sequence: MetricSequence): MetricSequence {
  return sequence.slice(0, playSequence(config, sequence).evaluations);
}
