import type {
  SequentialGateReport,
  SequentialGateState,
} from '../../domain/judge/sequentialGate.js';

/** Two decimals, as a rate or score is read: `0.9333` -> `0.93`, `1` -> `1`. */
const brief = (value: number): string => String(Number(value.toFixed(2)));

/**
 * The line `arena judge` prints for one sequentially decided gate.
 *
 * @example
 * ```ts
 * sequentialGateLine(report, state);
 * // 'gate min_pass_rate 0.8: PASS after 212 of 10000 cases (wealth 20.4 >= 1/alpha 20); pass rate 0.93, 95% confidence sequence 0.86-0.97'
 * ```
 */
export function sequentialGateLine(
  report: SequentialGateReport,
  state: Pick<SequentialGateState, 'alpha' | 'total' | 'folded'>,
): string {
  const bar = brief(1 / state.alpha);
  const wealth = report.wealth >= 10 ? report.wealth.toFixed(1) : report.wealth.toPrecision(2);
  const how =
    report.decision === null
      ? `undecided after ${state.folded} of ${state.total} cases (wealth ${wealth} < 1/alpha ${bar})`
      : `${report.decision.toUpperCase()} after ${report.decidedAt} of ${state.total} cases (${
          report.decidedBy === 'exact'
            ? 'exact: the cases judged settle it'
            : `wealth ${wealth} >= 1/alpha ${bar}`
        })`;
  const measure = report.gate === 'min_pass_rate' ? 'pass rate' : 'mean score';
  const observed = report.observed === null ? 'n/a' : brief(report.observed);
  const [lower, upper] = report.confidenceSequence;
  return `gate ${report.gate} ${report.threshold}: ${how}; ${measure} ${observed}, 95% confidence sequence ${brief(lower)}-${brief(upper)}`;
}

/**
 * The line that says what the gate's decision cost: where it was reached in
 * draw order, the seed, and every judgement made (paid for), folded or not.
 *
 * @example
 * ```ts
 * sequentialCostLine(state, 215);
 * // 'sequential gate (alpha 0.05): decided at case 212 of 10000 in draw order (seed 1234); 215 judgements made'
 * ```
 */
export function sequentialCostLine(state: SequentialGateState, judged: number): string {
  const where =
    state.decidedAt === null
      ? `undecided after ${state.folded} of ${state.total} cases`
      : `decided at case ${state.decidedAt} of ${state.total}`;
  return `sequential gate (alpha ${state.alpha}): ${where} in draw order (seed ${state.seed}); ${judged} judgements made`;
}
