/**
 * `arena-runtime/report`: a stored run read back as a report (data and a
 * self-contained HTML page) and the termination evidence behind each phase.
 *
 * @example
 * ```ts
 * import { buildRunReportHtml } from 'arena-runtime/report';
 * const html = buildRunReportHtml(store, runId); // '<!doctype html>...'
 * ```
 */

export type {
  EpisodeReturn,
  MetaDecisionRows,
  MetricPoint,
  MetricSeries,
  PhaseHistory,
  PhaseReport,
  RunOverview,
  RunReport,
  SelectorChange,
  SmoothedSeries,
  StoredRules,
  StudyOutcome,
  StudyPhase,
  StudySummary,
  TerminationEvidence,
} from '../report/index.js';
export {
  buildRunReportHtml,
  collectRunReport,
  metricSeries,
  plateauSeries,
  runReportHtml,
  storedRules,
  studySummary,
  terminationEvidence,
} from '../report/index.js';
