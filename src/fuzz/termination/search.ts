import type { TerminationConfig } from '../../domain/termination/config.js';
import { sequenceArbitrary, targetedExamples } from './arbitraries.js';
import { fastCheck } from './fastCheck.js';
import type { MetricRange } from './metricRange.js';
import type { MetricSequence } from './sequences.js';

/** How hard and how reproducibly to search. */
export interface SearchSettings {
  /** fast-check runs per search (`--runs`). */
  readonly runs: number;
  /** fast-check seed (`--seed`): equal settings give equal reports. */
  readonly seed: number;
}

/**
 * Search for a metric sequence of `minLength` to `maxLength` checkpoints that
 * satisfies `wanted`: the targeted sequences of `maxLength` (and of
 * `minLength` when it differs) first, then `runs` random ones. fast-check
 * checks the property "no sequence is wanted" and shrinks the first
 * counterexample, so the sequence returned is a local minimum (shorter and
 * with values nearer the low end where that keeps it wanted).
 *
 * @example
 * ```ts
 * findSequence(config, ranges, { minLength: 1, maxLength: 20 }, settings,
 *   (sequence) => playSequence(config, sequence).reason === 'success');
 * // [{ SAC: { objective: 0.8 } }, { SAC: { objective: 0.8 } }]  (or null)
 * ```
 */
export function findSequence(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
  length: { readonly minLength: number; readonly maxLength: number },
  settings: SearchSettings,
  wanted: (sequence: MetricSequence) => boolean,
): MetricSequence | null {
  const examples = targetedExamples(config, ranges, length.maxLength);
  if (length.minLength !== length.maxLength) {
    examples.push(...targetedExamples(config, ranges, length.minLength));
  }
  const fc = fastCheck();
  const details = fc.check(
    fc.property(sequenceArbitrary(config, ranges, length), (sequence) => !wanted(sequence)),
    { numRuns: settings.runs, seed: settings.seed, examples },
  );
  if (!details.failed || details.counterexample === null) return null;
  const [sequence] = details.counterexample;
  if (!wanted(sequence)) throw details.errorInstance;
  return sequence;
}
