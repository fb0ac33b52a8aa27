import {
  type TerminationRulesInput,
  terminationConfigOf,
} from '../../domain/termination/config.js';
import type { PhaseConfiguration } from '../../domain/termination/phase.js';
import { FuzzInputError } from './errors.js';
import type { ForeverFinding } from './forever.js';
import { fuzzForever } from './forever.js';
import type { InvariantFinding } from './invariants.js';
import { checkInvariants } from './invariants.js';
import type { MetricRange } from './metricRange.js';
import { resolveMetricRanges } from './metricRanges.js';
import type { FuzzedReason, ReasonFinding } from './reasons.js';
import { evaluationsBeforeCap, fuzzCheckpointReason, fuzzMaxEpisodes } from './reasons.js';

/** What to fuzz and how hard. */
export interface FuzzTerminationOptions {
  /** The user's `--metric` ranges; a metric without one gets `0:1`, widened to twice a success threshold outside it. */
  readonly ranges?: readonly MetricRange[];
  /** fast-check runs per search and per invariant (default 200). */
  readonly runs?: number;
  /** fast-check seed (default 42): equal options give equal reports. */
  readonly seed?: number;
  /** The longest metric sequence searched (default 50). */
  readonly maxEvaluations?: number;
  /** The phase the rules run in (its `episodes` cap ends the phase with `max_episodes`). */
  readonly phase?: PhaseConfiguration | null;
  /** Where `phase` came from, said in the report (e.g. `phases explore_1, tune of run.yaml`); default: the rules file's `phase:`. */
  readonly phaseOrigin?: string | null;
  /** Reasons that must be reachable (`--require`). */
  readonly require?: readonly FuzzedReason[];
}

/** Everything `arena fuzz termination` found, plain JSON. */
export interface FuzzTerminationReport {
  readonly settings: {
    readonly runs: number;
    readonly seed: number;
    readonly maxEvaluations: number;
    /** The longest sequence actually searched: `maxEvaluations`, or fewer under an episode cap. */
    readonly horizon: number;
    /** The phase the rules were fuzzed in, and where it came from; `null` without one. */
    readonly phase: {
      readonly episodes: number | null;
      readonly evaluateEvery: number | null;
      readonly origin: string | null;
    } | null;
  };
  readonly ranges: readonly MetricRange[];
  readonly reasons: readonly ReasonFinding[];
  readonly forever: ForeverFinding;
  readonly invariants: readonly InvariantFinding[];
  readonly required: readonly FuzzedReason[];
  /** Required reasons found unreachable: the command exits 1 when this is not empty. */
  readonly unreachableRequired: readonly FuzzedReason[];
}

/**
 * The defaults of {@link FuzzTerminationOptions}.
 *
 * @example
 * ```ts
 * FUZZ_DEFAULTS; // { runs: 200, seed: 42, maxEvaluations: 50 }
 * ```
 */
export const FUZZ_DEFAULTS = { runs: 200, seed: 42, maxEvaluations: 50 } as const;

/**
 * Fuzz a rule set with fast-check before a run: for `success`, `plateau` and
 * `max_episodes`, whether it is reachable, the fewest evaluations that reach
 * it and a shortest (shrunk) example metric sequence; whether the phase can
 * run forever with metrics within the ranges; and every invariant of the
 * termination property tests, checked on these rules.
 *
 * `rules` as a rules file writes them (`{ agents }` with the seed's snake_case
 * keys) or a config from `parseTerminationConfig`.
 *
 * @throws TerminationConfigError naming each agent and field of bad rules;
 *   FuzzInputError for a bad option (runs, max evaluations, a range).
 * @example
 * ```ts
 * const report = fuzzTermination({ agents: { SAC: { success: {
 *   metric: 'objective', threshold: 2, direction: 'greater_equal', consecutive: 1, min_evaluations: 1,
 * } } } }, { ranges: [parseMetricRange('objective=0:1')], require: ['success'] });
 * report.reasons[0]?.reachable; // false ('agent "SAC" needs objective ≥ 2, outside the range 0:1')
 * report.unreachableRequired; // ['success']
 * ```
 */
export function fuzzTermination(
  rules: TerminationRulesInput,
  options: FuzzTerminationOptions = {},
): FuzzTerminationReport {
  const config = terminationConfigOf(rules);
  const runs = positiveInteger('--runs', options.runs ?? FUZZ_DEFAULTS.runs);
  const seed = options.seed ?? FUZZ_DEFAULTS.seed;
  if (!Number.isSafeInteger(seed)) {
    throw new FuzzInputError(`--seed must be an integer, got ${seed}`);
  }
  const maxEvaluations = positiveInteger(
    '--max-evaluations',
    options.maxEvaluations ?? FUZZ_DEFAULTS.maxEvaluations,
  );
  const phase = options.phase ?? null;
  const phaseOrigin = options.phaseOrigin ?? null;
  const ranges = resolveMetricRanges(config, options.ranges ?? []);
  const capped = phase !== null && phase.episodes !== null;
  const horizon = capped ? Math.min(maxEvaluations, evaluationsBeforeCap(phase)) : maxEvaluations;
  const settings = { runs, seed };
  const reasons = [
    fuzzCheckpointReason(config, ranges, 'success', horizon, settings),
    fuzzCheckpointReason(config, ranges, 'plateau', horizon, settings),
    fuzzMaxEpisodes(config, ranges, phase, settings, phaseOrigin),
  ];
  const required = [...new Set(options.require ?? [])];
  return {
    settings: {
      runs,
      seed,
      maxEvaluations,
      horizon,
      phase:
        phase === null
          ? null
          : { episodes: phase.episodes, evaluateEvery: phase.evaluateEvery, origin: phaseOrigin },
    },
    ranges,
    reasons,
    forever: fuzzForever(config, ranges, phase, maxEvaluations, settings),
    invariants: checkInvariants(config, ranges, phase, settings),
    required,
    unreachableRequired: required.filter(
      (reason) => !reasons.find((finding) => finding.reason === reason)?.reachable,
    ),
  };
}

function positiveInteger(option: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new FuzzInputError(`${option} must be a positive integer, got ${value}`);
  }
  return value;
}
