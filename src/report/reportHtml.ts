import { diagramFrameStyle } from '../html/diagramFrame.js';
import { htmlPage, jsonScriptElement } from '../html/htmlPage.js';
import { escapeHtml } from '../html/htmlText.js';
import {
  type ChartConfig,
  episodeReturnChartConfig,
  metaLoopChartConfig,
  metricChartConfig,
} from './chartConfigs.js';
import { chartClientScript, chartJsScript } from './chartScript.js';
import {
  constantMetricHtml,
  metaDecisionsHtml,
  phaseHeadingHtml,
  runMetadataHtml,
  studyHtml,
  terminationHtml,
} from './reportSections.js';
import type { RunReport } from './reportTypes.js';
import { studyChartConfig } from './studyChart.js';

const style = `
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1f2933; }
dl.metadata { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dl.metadata dt { font-weight: 600; }
dl.metadata dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #cbd2d9; padding: 0.25rem 0.6rem; text-align: left; font-variant-numeric: tabular-nums; }
tr.changed td { background: #fff7e6; }
.chart { position: relative; height: 20rem; margin: 1rem 0; }
.chart.study-chart { height: 28rem; }
.reason strong { text-transform: uppercase; letter-spacing: 0.04em; }
.evidence { font-family: ui-monospace, monospace; background: #f5f7fa; padding: 0.5rem 0.75rem; }
${diagramFrameStyle}
section.phase { border-top: 2px solid #e4e7eb; margin-top: 2rem; }
p.unfinished { background: #fff4e5; border: 1px solid #f0b45a; padding: 0.5rem 1rem; font-weight: 600; }
section.study { background: #f8fafc; border: 1px solid #e4e7eb; padding: 0 1rem 0.5rem; }
section.study h2 { margin-top: 0.75rem; }
ul.findings { margin: 0.25rem 0; padding-left: 1.25rem; }
`;

/**
 * The run report as one self-contained HTML page: first the study's answer
 * when phases made meta decisions (chosen value against outcome, across
 * phases); then run metadata; per phase the termination reason with its
 * evidence, a chart of each evaluation metric per checkpoint (success
 * threshold dashed, the plateau rule's smoothed series with its best starred;
 * a constant metric is one sentence instead), the episode returns (per agent
 * when there are several) and the meta decision table; and the controller's
 * lifecycle drawing as inline SVG. Chart.js is inlined, so the page works
 * offline. Every text from the store is HTML-escaped; the chart data travels
 * as JSON in `<script type="application/json">` with `<` escaped.
 *
 * @example
 * ```ts
 * const html = runReportHtml(collectRunReport(store, runId), {
 *   controllerSvg: toSvg(simulationControllerMachine),
 * });
 * writeFileSync('report.html', html);
 * ```
 */
export function runReportHtml(report: RunReport, options: { controllerSvg: string }): string {
  const charts: ChartConfig[] = [];
  const chartHtml = (config: ChartConfig, kind = 'chart') => {
    charts.push(config);
    return `<div class="${kind}"><canvas data-chart="${charts.length - 1}"></canvas></div>`;
  };
  // The study's charts come first so that they open the page.
  const summary = report.study;
  const study =
    summary === null
      ? ''
      : studyHtml(summary, (uid) => chartHtml(studyChartConfig(summary, uid), 'chart study-chart'));
  const phases = report.phases.map((phase) => {
    const metricCharts =
      phase.metrics.length === 0
        ? '<p class="none">No evaluation checkpoint in this phase.</p>'
        : phase.metrics
            .map((series) =>
              series.constant === null
                ? chartHtml(metricChartConfig(series, phase.episodeReturns, phase.mode))
                : constantMetricHtml({ ...series, constant: series.constant }),
            )
            .join('\n');
    const returnChart =
      phase.episodeReturns.length === 0
        ? '<p class="none">No finished episode in this phase.</p>'
        : chartHtml(episodeReturnChartConfig(phase.name, phase.episodeReturns, phase.mode));
    // the repeated meta loop: its decisions drawn over the episodes, one chart per selector it moved
    const loopCharts = loopSelectors(phase)
      .map((uid) =>
        chartHtml(metaLoopChartConfig(phase.name, phase.episodeReturns, phase.metaDecisions, uid)),
      )
      .join('\n');
    return `<section class="phase" data-phase="${phase.phaseIndex}">
${phaseHeadingHtml(phase)}
<h3>Termination</h3>
${terminationHtml(phase.termination, phase)}
<h3>Evaluation metrics per checkpoint</h3>
${metricCharts}
<h3>Episode returns</h3>
${returnChart}
${loopCharts}
<h3>Meta decision</h3>
${metaDecisionsHtml(phase.metaDecisions, phase)}
</section>`;
  });
  return htmlPage({
    title: `arena run report: ${report.run.runId}`,
    htmlAttributes: ' data-diagrams="rendered"',
    viewport: true,
    style,
    body: `${unfinishedHtml(report)}${study}
${runMetadataHtml(report)}
${phases.join('\n')}
<section class="lifecycle">
<h2>Controller lifecycle</h2>
<p>The simulation controller's statechart, drawn from its definition (<code>arena diagram controller --format svg</code>) at full size: scroll the frame to see all of it.</p>
<div class="diagram">${options.controllerSvg}</div>
</section>
${jsonScriptElement('run-report', report)}
${jsonScriptElement('chart-configs', charts)}
<script>${chartJsScript()}</script>
<script>${chartClientScript('chart-configs')}</script>
`,
  });
}

/** The numeric selectors a phase's repeated decisions moved (none for a one-shot phase). */
/** An unfinished run's report opens with that, before anything else. */
function unfinishedHtml(report: RunReport): string {
  const note = report.run.unfinished;
  return note === null ? '' : `<p class="unfinished" role="alert">${escapeHtml(note)}</p>\n`;
}

function loopSelectors(phase: RunReport['phases'][number]): string[] {
  if (phase.metaDecisions.length < 2 || phase.episodeReturns.length === 0) return [];
  const uids = [...new Set(phase.metaDecisions.flatMap((d) => d.selectors.map((s) => s.uid)))];
  return uids.filter((uid) => {
    const values = phase.metaDecisions.map(
      (decision) => decision.selectors.find((selector) => selector.uid === uid)?.candidate,
    );
    return values.every((value) => typeof value === 'number') && new Set(values).size > 1;
  });
}
