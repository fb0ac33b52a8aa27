import type { TerminationConfig } from '../../domain/termination/config.js';
import type { PhaseConfiguration } from '../../domain/termination/phase.js';
import { analyseForever } from './bounds.js';
import type { MetricRange } from './metricRange.js';
import { evaluationsBeforeCap } from './reasons.js';
import type { SearchSettings } from './search.js';
import { findSequence } from './search.js';
import type { MetricSequence } from './sequences.js';
import { playSequence } from './sequences.js';

/** Whether a phase under these rules can run forever, with evidence. */
export interface ForeverFinding {
  readonly possible: boolean;
  /** A sequence of `horizon` evaluations that never terminates, when possible. */
  readonly example: MetricSequence | null;
  /** When not possible: the evaluation by which every sequence has ended the phase. */
  readonly bound: number | null;
  /** Why, one sentence each. */
  readonly explanation: readonly string[];
}

/**
 * Decide whether the rules can let a phase run forever with metrics within
 * the ranges. An episode cap rules it out. Otherwise {@link analyseForever}
 * decides from the rules; fast-check then looks for a sequence of `horizon`
 * evaluations that does not terminate (the example), or, when the analysis
 * gives a bound within the horizon, checks that no sequence of that length
 * outlives it (a counterexample overrides the analysis and is reported).
 *
 * @example
 * ```ts
 * // SAC: success ≥ 2 (outside the range 0:1), no plateau rule
 * fuzzForever(config, ranges, null, 50, { runs: 200, seed: 42 });
 * // { possible: true, bound: null, example: [{ SAC: { objective: 0 } }, … 50 checkpoints],
 * //   explanation: ['success is avoidable: agent "SAC" can keep objective below 2 within 0:1',
 * //     'there is no plateau rule, so a plateau never ends the phase'] }
 * ```
 */
export function fuzzForever(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
  phase: PhaseConfiguration | null,
  horizon: number,
  settings: SearchSettings,
): ForeverFinding {
  const neverEnds = (sequence: MetricSequence) => playSequence(config, sequence).reason === null;
  if (phase !== null && phase.episodes !== null) {
    const evaluations = evaluationsBeforeCap(phase);
    return {
      possible: false,
      example: null,
      bound: evaluations,
      explanation: [
        `phase.episodes ${phase.episodes} caps the phase: it stops with max_episodes after at most ${evaluations} evaluation${evaluations === 1 ? '' : 's'}`,
      ],
    };
  }
  const analysis = analyseForever(config, ranges);
  if (analysis.possible) {
    const example = findSequence(
      config,
      ranges,
      { minLength: horizon, maxLength: horizon },
      settings,
      neverEnds,
    );
    const explanation =
      example === null
        ? [
            ...analysis.explanation,
            `(no sequence of ${horizon} evaluations that never ends was found in ${settings.runs} runs)`,
          ]
        : analysis.explanation;
    return { possible: true, example, bound: null, explanation };
  }
  if (analysis.bound !== null && analysis.bound <= horizon) {
    const outlives = findSequence(
      config,
      ranges,
      { minLength: analysis.bound, maxLength: analysis.bound },
      settings,
      neverEnds,
    );
    if (outlives !== null) {
      return {
        possible: true,
        example: outlives,
        bound: null,
        explanation: [
          ...analysis.explanation,
          `but fast-check found a sequence of ${analysis.bound} evaluations that does not end the phase, so the bound above does not hold for these rules`,
        ],
      };
    }
  }
  return {
    possible: false,
    example: null,
    bound: analysis.bound,
    explanation: analysis.explanation,
  };
}
