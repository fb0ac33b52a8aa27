import type { IProperty } from 'fast-check';
import type { TerminationConfig } from '../../domain/termination/config.js';
import type { PhaseConfiguration } from '../../domain/termination/phase.js';
import { evaluationArbitrary } from './arbitraries.js';
import { fastCheck } from './fastCheck.js';
import {
  conflictIsRejected,
  describeError,
  duplicateIsIdempotent,
  INVARIANT_HISTORY_LENGTH,
  invalidOutcomesAreHarmless,
  orderDoesNotMatter,
  outOfOrderIsRejected,
  roundTripContinues,
  terminalReasonSticks,
} from './invariantChecks.js';
import type { MetricRange } from './metricRange.js';
import type { SearchSettings } from './search.js';
/** The outcome of checking one invariant of the termination property tests on the user's rules. */
export interface InvariantFinding {
  readonly name: string;
  readonly held: boolean;
  /** Runs fast-check made (skipped runs not counted). */
  readonly runs: number;
  /** The shrunk input that broke it, as JSON, when it did not hold. */
  readonly counterexample: string | null;
  /** What went wrong, when it did not hold. */
  readonly error: string | null;
}

/**
 * Check every invariant of arena's termination property tests, with the
 * user's rules and metric values from the user's ranges: exact duplicates are
 * idempotent, a conflicting duplicate is rejected, out-of-order episodes are
 * rejected, invalid outcomes never end the phase or touch plateau state, the
 * order within a checkpoint does not matter, the terminal reason sticks, and a
 * state dict round trip continues exactly like the original. A rejected
 * checkpoint must leave the state unchanged.
 *
 * @example
 * ```ts
 * checkInvariants(config, ranges, null, { runs: 100, seed: 42 }).map((finding) => finding.held);
 * // [true, true, true, true, true, true, true]
 * ```
 */
export function checkInvariants(
  config: TerminationConfig,
  ranges: readonly MetricRange[],
  phase: PhaseConfiguration | null,
  settings: SearchSettings,
): InvariantFinding[] {
  const fc = fastCheck();
  const evaluation = evaluationArbitrary(config, ranges);
  const history = fc.array(evaluation, { maxLength: INVARIANT_HISTORY_LENGTH });
  const nonEmptyHistory = fc.array(evaluation, {
    minLength: 1,
    maxLength: INVARIANT_HISTORY_LENGTH,
  });
  const agentCount = config.agentNames.length;
  const check = <Ts extends unknown[]>(property: IProperty<Ts>): Omit<InvariantFinding, 'name'> => {
    const details = fc.check(property, { numRuns: settings.runs, seed: settings.seed });
    return {
      held: !details.failed,
      runs: details.numRuns,
      counterexample: details.failed ? safeJson(details.counterexample) : null,
      error: details.failed ? describeError(details.errorInstance) : null,
    };
  };
  const checks: [string, () => Omit<InvariantFinding, 'name'>][] = [
    [
      'an exact duplicate of any recorded checkpoint changes nothing',
      () =>
        check(
          fc.property(nonEmptyHistory, fc.nat(), (sequence, pick) =>
            duplicateIsIdempotent(config, sequence, pick),
          ),
        ),
    ],
    [
      'a conflicting duplicate is rejected and changes nothing',
      () =>
        check(
          fc.property(nonEmptyHistory, fc.nat(), evaluation, (sequence, pick, next) =>
            conflictIsRejected(config, sequence, pick, next),
          ),
        ),
    ],
    [
      'a gap or regression in evaluation episodes is rejected and changes nothing',
      () =>
        check(
          fc.property(
            history,
            fc.integer({ min: -4, max: 4 }).filter((offset) => offset !== 1),
            evaluation,
            (sequence, offset, next) => outOfOrderIsRejected(config, sequence, offset, next),
          ),
        ),
    ],
    [
      'invalid outcomes never end the phase and never change plateau state',
      () =>
        check(
          fc.property(
            history,
            fc.array(
              fc.constantFrom(
                Number.NaN,
                Number.POSITIVE_INFINITY,
                Number.NEGATIVE_INFINITY,
                true,
                '1',
                null,
              ),
              {
                minLength: 1,
                maxLength: 4,
              },
            ),
            (sequence, badValues) => invalidOutcomesAreHarmless(config, sequence, badValues),
          ),
        ),
    ],
    [
      'the order of outcomes within a checkpoint does not matter',
      () =>
        check(
          fc.property(
            history,
            evaluation,
            fc.array(fc.nat(), { minLength: agentCount, maxLength: agentCount }),
            (sequence, next, sortKeys) => orderDoesNotMatter(config, sequence, next, sortKeys),
          ),
        ),
    ],
    [
      'the terminal reason never changes once set',
      () =>
        check(
          fc.property(
            fc.array(
              fc.oneof(
                { weight: 6, arbitrary: evaluation },
                fc.constantFrom('cancel' as const, 'fail' as const, 'episode' as const),
              ),
              { maxLength: 2 * INVARIANT_HISTORY_LENGTH },
            ),
            (script) => terminalReasonSticks(config, phase, script),
          ),
        ),
    ],
    [
      'a state dict round trip at any point continues exactly like the original',
      () =>
        check(
          fc.property(history, fc.nat(), (sequence, cut) =>
            roundTripContinues(config, sequence, cut),
          ),
        ),
    ],
  ];
  return checks.map(([name, run]) => ({ name, ...run() }));
}

function safeJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'number' && !Number.isFinite(inner) ? String(inner) : inner,
  );
}
