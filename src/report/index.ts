export { buildRunReportHtml } from './buildRunReport.js';
export {
  type ChartConfig,
  type ChartDataset,
  episodeReturnChartConfig,
  metricChartConfig,
} from './chartConfigs.js';
export { chartClientScript, chartJsScript } from './chartScript.js';
export { collectRunReport } from './collectRunReport.js';
export { metricSeries } from './metricSeries.js';
export { plateauSeries } from './plateauSeries.js';
export { runReportHtml } from './reportHtml.js';
export type {
  EpisodeReturn,
  MetaDecisionRows,
  MetricPoint,
  MetricSeries,
  PhaseOverview,
  PhaseReport,
  RunOverview,
  RunReport,
  SelectorChange,
  SmoothedSeries,
  StudyOutcome,
  StudyPhase,
  StudySummary,
  TerminationEvidence,
} from './reportTypes.js';
export {
  type CheckpointDetails,
  type MetaDecisionDetails,
  type PhaseDetails,
  type RunDetails,
  runDetails,
} from './runDetails.js';
export { type RunListing, runListings } from './runListings.js';
export { type StoredRules, storedRules } from './storedRules.js';
export { studyChartConfig } from './studyChart.js';
export { studySummary } from './studySummary.js';
export { type PhaseHistory, terminationEvidence } from './terminationEvidence.js';
