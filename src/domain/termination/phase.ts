import { describeValue } from '../shared/describeValue.js';
import { TerminationConfigError } from './errors.js';

/** A phase configuration as a run file writes it (`evaluateEvery` also accepted). */
export interface PhaseConfigurationInput {
  readonly mode?: unknown;
  readonly worker?: unknown;
  readonly episodes?: unknown;
  readonly evaluate_every?: unknown;
  readonly evaluateEvery?: unknown;
}

/** A validated phase configuration. `episodes: null` means cap-free. */
export interface PhaseConfiguration {
  readonly mode: string;
  readonly worker: 1;
  readonly episodes: number | null;
  readonly evaluateEvery: number | null;
}

/**
 * Check a phase configuration with the seed's rules: `worker` is exactly 1;
 * a train phase needs a positive integer `evaluate_every`; `episodes` absent
 * or `null` means cap-free, allowed only for train phases; otherwise it is a
 * positive integer. Booleans are never integers.
 *
 * @throws TerminationConfigError naming the field and what was expected.
 * @example
 * ```ts
 * validatePhaseConfiguration({ mode: 'train', evaluate_every: 5 });
 * // { mode: 'train', worker: 1, episodes: null, evaluateEvery: 5 }
 * validatePhaseConfiguration({ mode: 'train', worker: 2, evaluate_every: 5 });
 * // throws: phase.worker must be exactly 1 (evaluation termination supports one worker), got 2
 * ```
 */
export function validatePhaseConfiguration(phase: PhaseConfigurationInput): PhaseConfiguration {
  if (typeof phase !== 'object' || phase === null || Array.isArray(phase)) {
    throw new TerminationConfigError(`phase must be a mapping, got ${describeValue(phase)}`);
  }
  const mode = String(phase.mode ?? 'train').toLowerCase();
  const worker = phase.worker ?? 1;
  const evaluateEvery = phase.evaluate_every ?? phase.evaluateEvery ?? null;
  const episodes = phase.episodes ?? null;
  if (worker !== 1) {
    throw new TerminationConfigError(
      `phase.worker must be exactly 1 (evaluation termination supports one worker), got ${describeValue(worker)}`,
    );
  }
  const evaluateEveryIsPositive = isPositiveInteger(evaluateEvery);
  if (mode === 'train' && !evaluateEveryIsPositive) {
    throw new TerminationConfigError(
      `phase.evaluate_every must be a positive integer for a train phase, got ${describeValue(evaluateEvery ?? undefined)}`,
    );
  }
  if (episodes === null) {
    if (mode !== 'train') {
      throw new TerminationConfigError(
        `phase.episodes is required for a ${mode} phase: cap-free evaluation termination is supported only for train phases`,
      );
    }
  } else if (!isPositiveInteger(episodes)) {
    throw new TerminationConfigError(
      `phase.episodes must be a positive integer when provided, got ${describeValue(episodes)}`,
    );
  }
  return {
    mode,
    worker: 1,
    episodes: episodes as number | null,
    evaluateEvery: evaluateEveryIsPositive ? (evaluateEvery as number) : null,
  };
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
