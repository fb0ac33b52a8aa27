import { describe, expect, it } from 'vitest';
import { episodeReturnChartConfig, metricChartConfig } from '../../../src/report/chartConfigs.js';
import { runReportHtml } from '../../../src/report/reportHtml.js';
import type { MetricSeries, RunReport } from '../../../src/report/reportTypes.js';

const hostile = '</script><img src=x onerror="alert(1)">';

const series: MetricSeries = {
  agentName: hostile,
  metric: 'objective',
  points: [
    { checkpointIndex: 0, afterEpisode: 3, value: 0.1 },
    { checkpointIndex: 1, afterEpisode: 6, value: null },
    { checkpointIndex: 2, afterEpisode: 9, value: 0.9 },
  ],
  threshold: { value: 0.8, direction: 'greater_equal' },
  best: { checkpointIndex: 2, afterEpisode: 9, value: 0.9 },
};

const report: RunReport = {
  run: {
    runId: 'evil-run',
    uid: hostile,
    seed: 1,
    status: 'failed',
    startedAt: '2026-11-29T20:00:00.000Z',
    endedAt: null,
    error: `Error: ${hostile}`,
    runFilePath: 'x.yaml',
  },
  rulesNote: null,
  phases: [
    {
      phaseIndex: 0,
      name: hostile,
      mode: 'train',
      status: 'done',
      terminationReason: 'success',
      episodes: 2,
      metrics: [series],
      episodeReturns: [
        { episode: 1, evaluation: false, episodeReturn: -1, steps: 4 },
        { episode: 2, evaluation: true, episodeReturn: -0.5, steps: 4 },
      ],
      metaDecisions: [
        {
          startRequest: 1,
          firstEpisode: 1,
          environmentUid: hostile,
          agentName: 'designer',
          selectors: [
            { uid: hostile, baseline: 1, candidate: hostile },
            { uid: 'same', baseline: 2, candidate: 2 },
          ],
        },
      ],
      termination: {
        reason: 'success',
        summary: `success: ${hostile}`,
        decisiveCheckpoint: {
          checkpointIndex: 2,
          afterEpisode: 9,
          agents: [{ agentName: hostile, status: 'accepted', successStreak: 1 }],
        },
      },
    },
  ],
};

function jsonScript(html: string, id: string): unknown {
  const match = html.match(
    new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, 's'),
  );
  if (match?.[1] === undefined) throw new Error(`no JSON script #${id}`);
  return JSON.parse(match[1]);
}

describe('runReportHtml', () => {
  const html = runReportHtml(report, { controllerDiagram: 'stateDiagram-v2\n  [*] --> idle\n' });

  // The inlined bundles hold markup of their own; the page around them must not.
  const markup = html.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');

  it('never writes text from the store as markup', () => {
    expect(html.includes(hostile)).toBe(false);
    expect(markup.includes('<img')).toBe(false);
    expect(markup.match(/<script\b/g)).toHaveLength(7);
    expect(markup).toContain('&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });

  it('embeds the report, the chart configurations and the diagram as JSON that parses back', () => {
    expect(jsonScript(html, 'run-report')).toEqual(report);
    expect(jsonScript(html, 'diagram-sources')).toEqual(['stateDiagram-v2\n  [*] --> idle\n']);
    expect(jsonScript(html, 'chart-configs')).toEqual([
      metricChartConfig(series),
      episodeReturnChartConfig(hostile, report.phases[0]!.episodeReturns),
    ]);
  });

  it('has one canvas per chart and a place for the lifecycle diagram', () => {
    expect(markup.match(/<canvas data-chart="\d+">/g)).toEqual([
      '<canvas data-chart="0">',
      '<canvas data-chart="1">',
    ]);
    expect(markup).toContain('<div class="diagram" data-diagram="0"></div>');
  });

  it('inlines Chart.js and Mermaid and loads nothing from elsewhere', () => {
    expect(markup).not.toMatch(/<script[^>]* src=|<link\b|<iframe\b|<img\b/);
    expect(html.includes('Chart.js v4.6.1')).toBe(true);
    expect(html.includes('globalThis["mermaid"]')).toBe(true);
  });

  it('shows the termination evidence and marks changed selectors', () => {
    expect(markup).toContain(
      '<p class="reason"><strong>success</strong> at checkpoint 2 (after episode 9)</p>',
    );
    expect(markup.match(/<tr class="changed">/g)).toHaveLength(1);
  });
});

describe('runReportHtml for a run that has not got far', () => {
  const early: RunReport = {
    run: { ...report.run, status: 'running', error: null },
    rulesNote:
      'the run has no evaluation-aware termination rules (run_config.condition.params.agents)',
    phases: [],
  };
  const html = runReportHtml(early, { controllerDiagram: 'stateDiagram-v2\n' });
  const markup = html.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');

  it('says the run has not ended and why there are no thresholds, and draws no chart', () => {
    expect(markup).toContain('<dt>ended</dt><dd>not yet</dd>');
    expect(markup).toContain(
      '<dt>rules</dt><dd>the run has no evaluation-aware termination rules (run_config.condition.params.agents)</dd>',
    );
    expect(markup).not.toContain('<canvas');
    expect(jsonScript(html, 'chart-configs')).toEqual([]);
  });
});

describe('metricChartConfig', () => {
  it('draws the values, the threshold across the checkpoints and the best value as a star', () => {
    const { datasets } = metricChartConfig(series).data;
    expect(datasets.map((dataset) => dataset.label)).toEqual([
      `${hostile} objective`,
      'success threshold ≥ 0.8',
      'best 0.9 (after episode 9)',
    ]);
    expect(datasets[0]?.data).toEqual([
      { x: 3, y: 0.1 },
      { x: 6, y: null },
      { x: 9, y: 0.9 },
    ]);
    expect(datasets[1]?.data).toEqual([
      { x: 3, y: 0.8 },
      { x: 9, y: 0.8 },
    ]);
    expect(datasets[2]).toMatchObject({
      data: [{ x: 9, y: 0.9 }],
      pointStyle: 'star',
      showLine: false,
    });
  });

  it('leaves out the threshold and the best value when there are none', () => {
    const plain = metricChartConfig({ ...series, threshold: null, best: null });
    expect(plain.data.datasets).toHaveLength(1);
  });
});

describe('episodeReturnChartConfig', () => {
  it('puts training and evaluation episodes in two datasets', () => {
    const { datasets } = episodeReturnChartConfig('train', report.phases[0]!.episodeReturns).data;
    expect(datasets.map((dataset) => [dataset.label, dataset.data])).toEqual([
      ['training episodes', [{ x: 1, y: -1 }]],
      ['evaluation episodes', [{ x: 2, y: -0.5 }]],
    ]);
  });
});
