/**
 * `arena-runtime/fuzz`: fuzzing a termination rule set: metric sequences that
 * never stop, reasons no sequence reaches, and the seed's invariants checked
 * on each played sequence.
 *
 * @example
 * ```ts
 * import { formatFuzzReport, fuzzTermination } from 'arena-runtime/fuzz';
 * const report = fuzzTermination(parseTerminationConfig(rules), { runs: 200, seed: 1 });
 * console.log(formatFuzzReport(report));
 * ```
 */

export * from '../fuzz/index.js';
