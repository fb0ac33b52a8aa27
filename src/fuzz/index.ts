export { FuzzInputError } from './termination/errors.js';
export type { ForeverFinding } from './termination/forever.js';
export { formatFuzzReport } from './termination/formatReport.js';
export type {
  FuzzTerminationOptions,
  FuzzTerminationReport,
} from './termination/fuzzTermination.js';
export { FUZZ_DEFAULTS, fuzzTermination } from './termination/fuzzTermination.js';
export type { InvariantFinding } from './termination/invariants.js';
export type { MetricRange } from './termination/metricRange.js';
export { parseMetricRange } from './termination/metricRanges.js';
export type { FuzzedReason, ReasonFinding } from './termination/reasons.js';
export type { MetricEvaluation, MetricSequence } from './termination/sequences.js';
export { playSequence } from './termination/sequences.js';
