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
export { runReportHtml } from './reportHtml.js';
export type {
  EpisodeReturn,
  MetaDecisionRows,
  MetricPoint,
  MetricSeries,
  PhaseReport,
  RunOverview,
  RunReport,
  SelectorChange,
  TerminationEvidence,
} from './reportTypes.js';
export { type StoredRules, storedRules } from './storedRules.js';
export { type PhaseHistory, terminationEvidence } from './terminationEvidence.js';
