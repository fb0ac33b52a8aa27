import { escapeHtml, scriptJson } from '../diagram/htmlText.js';
import { mermaidClientScript } from '../diagram/mermaidClient.js';
import { mermaidScript } from '../diagram/vendorScript.js';
import { type ChartConfig, episodeReturnChartConfig, metricChartConfig } from './chartConfigs.js';
import { chartClientScript, chartJsScript } from './chartScript.js';
import {
  metaDecisionsHtml,
  phaseHeadingHtml,
  runMetadataHtml,
  terminationHtml,
} from './reportSections.js';
import type { RunReport } from './reportTypes.js';

const style = `
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1f2933; }
dl.metadata { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dl.metadata dt { font-weight: 600; }
dl.metadata dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #cbd2d9; padding: 0.25rem 0.6rem; text-align: left; font-variant-numeric: tabular-nums; }
tr.changed td { background: #fff7e6; }
.chart { position: relative; height: 20rem; margin: 1rem 0; }
.reason strong { text-transform: uppercase; letter-spacing: 0.04em; }
.evidence { font-family: ui-monospace, monospace; background: #f5f7fa; padding: 0.5rem 0.75rem; }
.diagram svg { max-width: 100%; height: auto; }
section.phase { border-top: 2px solid #e4e7eb; margin-top: 2rem; }
`;

/**
 * The run report as one self-contained HTML page: run metadata; per phase the
 * termination reason with its evidence, a chart of each evaluation metric per
 * checkpoint (success threshold dashed, best value starred), the episode
 * returns (training and evaluation apart) and the meta decision table; and the
 * controller's lifecycle diagram. Chart.js and Mermaid are inlined, so the
 * page works offline. Every text from the store is HTML-escaped; the chart
 * data travels as JSON in `<script type="application/json">` with `<` escaped.
 *
 * @example
 * ```ts
 * const html = runReportHtml(collectRunReport(store, runId), {
 *   controllerDiagram: toMermaid(simulationControllerMachine),
 * });
 * writeFileSync('report.html', html);
 * ```
 */
export function runReportHtml(report: RunReport, options: { controllerDiagram: string }): string {
  const charts: ChartConfig[] = [];
  const chartHtml = (config: ChartConfig) => {
    charts.push(config);
    return `<div class="chart"><canvas data-chart="${charts.length - 1}"></canvas></div>`;
  };
  const phases = report.phases.map((phase) => {
    const metricCharts =
      phase.metrics.length === 0
        ? '<p class="none">No evaluation checkpoint in this phase.</p>'
        : phase.metrics.map((series) => chartHtml(metricChartConfig(series))).join('\n');
    const returnChart =
      phase.episodeReturns.length === 0
        ? '<p class="none">No finished episode in this phase.</p>'
        : chartHtml(episodeReturnChartConfig(phase.name, phase.episodeReturns));
    return `<section class="phase" data-phase="${phase.phaseIndex}">
${phaseHeadingHtml(phase)}
<h3>Termination</h3>
${terminationHtml(phase.termination)}
<h3>Evaluation metrics per checkpoint</h3>
${metricCharts}
<h3>Episode returns</h3>
${returnChart}
<h3>Meta decision</h3>
${metaDecisionsHtml(phase.metaDecisions)}
</section>`;
  });
  const title = `arena run report: ${report.run.runId}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${runMetadataHtml(report)}
${phases.join('\n')}
<section class="lifecycle">
<h2>Controller lifecycle</h2>
<p>The simulation controller's statechart, drawn from its definition (<code>arena diagram controller</code>).</p>
<div class="diagram" data-diagram="0"></div>
</section>
<script type="application/json" id="run-report">${scriptJson(report)}</script>
<script type="application/json" id="chart-configs">${scriptJson(charts)}</script>
<script type="application/json" id="diagram-sources">${scriptJson([options.controllerDiagram])}</script>
<script>${chartJsScript()}</script>
<script>${chartClientScript('chart-configs')}</script>
<script>${mermaidScript()}</script>
<script>${mermaidClientScript('diagram-sources')}</script>
</body>
</html>
`;
}
