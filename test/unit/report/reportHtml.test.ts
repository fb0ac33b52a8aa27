import { describe, expect, it } from 'vitest';
import { episodeReturnChartConfig, metricChartConfig } from '../../../src/report/chartConfigs.js';
import { runReportHtml } from '../../../src/report/reportHtml.js';
import type {
  EpisodeReturn,
  MetricSeries,
  RunReport,
  StudySummary,
} from '../../../src/report/reportTypes.js';
import { studyChartConfig } from '../../../src/report/studyChart.js';

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
  constant: null,
  smoothed: null,
};

const constantSeries: MetricSeries = {
  ...series,
  metric: 'episodes',
  points: series.points.map((point) => ({ ...point, value: 1 })),
  threshold: null,
  best: { checkpointIndex: 0, afterEpisode: 3, value: 1 },
  constant: 1,
};

const study: StudySummary = {
  selectors: ['grid.pv'],
  phases: [
    {
      phaseIndex: 0,
      name: 'explore',
      mode: 'train',
      terminationReason: 'plateau',
      decision: { 'grid.pv': 2, 'grid.load': 1 },
      outcome: { value: 3, measure: 'evaluation mean return', episodes: 2 },
    },
    {
      phaseIndex: 1,
      name: hostile,
      mode: 'test',
      terminationReason: 'max_episodes',
      decision: { 'grid.pv': 4, 'grid.load': 1 },
      outcome: { value: 5, measure: 'mean return', episodes: 1 },
    },
  ],
  findings: [`The best outcome is 5 (mean return) in phase ${hostile}, with grid.pv = 4.`],
};

const controllerSvg =
  '<svg xmlns="http://www.w3.org/2000/svg"><title>simulationController</title></svg>';

const report: RunReport = {
  run: {
    runId: 'evil-run',
    uid: hostile,
    seed: 1,
    status: 'failed',
    unfinished: null,
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
      metrics: [series, constantSeries],
      episodeReturns: [
        { episode: 1, evaluation: false, episodeReturn: -1, steps: 4, returnsByAgent: { a: -1 } },
        {
          episode: 2,
          evaluation: true,
          episodeReturn: -0.5,
          steps: 4,
          returnsByAgent: { a: -0.5 },
        },
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
  study,
};

function jsonScript(html: string, id: string): unknown {
  const match = html.match(
    new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, 's'),
  );
  if (match?.[1] === undefined) throw new Error(`no JSON script #${id}`);
  return JSON.parse(match[1]);
}

describe('runReportHtml', () => {
  const html = runReportHtml(report, { controllerSvg });

  // The inlined bundles hold markup of their own; the page around them must not.
  const markup = html.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');

  it('never writes text from the store as markup', () => {
    expect(html.includes(hostile)).toBe(false);
    expect(markup.includes('<img')).toBe(false);
    expect(markup.match(/<script\b/g)).toHaveLength(4);
    expect(markup).toContain('&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });

  it('embeds the report and the chart configurations as JSON that parses back, the study first', () => {
    expect(jsonScript(html, 'run-report')).toEqual(report);
    expect(jsonScript(html, 'chart-configs')).toEqual([
      studyChartConfig(study, 'grid.pv'),
      metricChartConfig(series, report.phases[0]!.episodeReturns, report.phases[0]!.mode),
      episodeReturnChartConfig(hostile, report.phases[0]!.episodeReturns),
    ]);
  });

  it('opens with the study answer: findings, its chart and a row per phase', () => {
    const studyAt = markup.indexOf('<section class="study">');
    expect(studyAt).toBeGreaterThan(markup.indexOf('<h1>'));
    expect(studyAt).toBeLessThan(markup.indexOf('<dl class="metadata">'));
    expect(markup).toContain(
      '<li>The best outcome is 5 (mean return) in phase &lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;, with grid.pv = 4.</li>',
    );
    expect(
      markup.match(/<table class="study-table">.*?<\/table>/s)?.[0].match(/<tr>/g),
    ).toHaveLength(3);
    expect(markup).toContain('<td>evaluation mean return of 2 episodes</td>');
  });

  it('gives the study table a column per selector whose choice changed between phases', () => {
    const head = markup.match(/<table class="study-table"><thead>(.*?)<\/thead>/s)?.[1];
    expect(head).toBe(
      '<tr><th>phase</th><th>grid.pv</th><th>outcome</th><th>measured as</th><th>ended by</th></tr>',
    );
  });

  it('says a constant metric is constant instead of charting it', () => {
    expect(markup).toContain(
      '<p class="constant">&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt; episodes is 1 at all 3 checkpoints (constant).</p>',
    );
  });

  it('has one canvas per chart and draws the lifecycle as the inline SVG it is given', () => {
    expect(markup.match(/<canvas data-chart="\d+">/g)).toEqual([
      '<canvas data-chart="0">',
      '<canvas data-chart="1">',
      '<canvas data-chart="2">',
    ]);
    expect(markup).toContain(`<div class="diagram">${controllerSvg}</div>`);
    expect(markup).toContain('<html lang="en" data-diagrams="rendered">');
  });

  it('inlines Chart.js, needs no Mermaid and loads nothing from elsewhere', () => {
    expect(markup).not.toMatch(/<script[^>]* src=|<link\b|<iframe\b|<img\b/);
    expect(html.includes('Chart.js v4.6.1')).toBe(true);
    expect(html.includes('globalThis["mermaid"]')).toBe(false);
  });

  it('shows the termination evidence and marks changed selectors', () => {
    expect(markup).toContain(
      '<p class="reason"><strong>success</strong> at checkpoint 2 (after 1 training episode)</p>',
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
    study: null,
  };
  const html = runReportHtml(early, { controllerSvg });
  const markup = html.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');

  it('says the run has not ended and why there are no thresholds, and draws no chart', () => {
    expect(markup).toContain('<dt>ended</dt><dd>not yet</dd>');
    expect(markup).toContain(
      '<dt>rules</dt><dd>the run has no evaluation-aware termination rules (run_config.condition.params.agents)</dd>',
    );
    expect(markup).not.toContain('<canvas');
    expect(markup).not.toContain('class="study"');
    expect(jsonScript(html, 'chart-configs')).toEqual([]);
  });
});

describe('metricChartConfig', () => {
  // evaluate_every 2: episodes 3, 6 and 9 evaluate, so checkpoints come after 2, 4 and 6 training episodes
  const numbered = Array.from({ length: 9 }, (_, index) => ({
    episode: index + 1,
    evaluation: (index + 1) % 3 === 0,
  }));

  it('draws the values over the training episodes, the threshold across the checkpoints and the best value as a star', () => {
    const { datasets } = metricChartConfig(series, numbered).data;
    expect(datasets.map((dataset) => dataset.label)).toEqual([
      `${hostile} objective`,
      'success threshold ≥ 0.8',
      'best 0.9 (after 6 training episodes)',
    ]);
    expect(datasets[0]?.data).toEqual([
      { x: 2, y: 0.1 },
      { x: 4, y: null },
      { x: 6, y: 0.9 },
    ]);
    expect(datasets[1]?.data).toEqual([
      { x: 2, y: 0.8 },
      { x: 6, y: 0.8 },
    ]);
    expect(datasets[2]).toMatchObject({
      data: [{ x: 6, y: 0.9 }],
      pointStyle: 'star',
      showLine: false,
    });
  });

  it("draws a plateau rule's smoothed series and stars the rule's best on it, not the raw best", () => {
    const smoothed = metricChartConfig(
      {
        ...series,
        smoothed: {
          metric: 'objective',
          window: 2,
          points: [
            { checkpointIndex: 0, afterEpisode: 3, value: null },
            { checkpointIndex: 2, afterEpisode: 9, value: 0.5 },
          ],
          best: { checkpointIndex: 2, afterEpisode: 9, value: 0.5 },
        },
      },
      numbered,
      'test',
    );
    expect(smoothed.data.datasets.map((dataset) => dataset.label)).toEqual([
      `${hostile} objective`,
      'success threshold ≥ 0.8',
      'smoothed: mean of the last 2 (the plateau rule reads it)',
      'best smoothed 0.5 (after 6 test episodes)',
    ]);
    expect(smoothed.data.datasets[2]?.data).toEqual([
      { x: 2, y: null },
      { x: 6, y: 0.5 },
    ]);
    expect(JSON.stringify(smoothed.options)).toContain(
      '"text":"test episodes (checkpoint taken after)"',
    );
    expect(smoothed.data.datasets[3]).toMatchObject({
      data: [{ x: 6, y: 0.5 }],
      pointStyle: 'star',
    });
  });

  it('leaves out the threshold and the best value when there are none', () => {
    const plain = metricChartConfig({ ...series, threshold: null, best: null }, numbered);
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

  it('names the episodes of a test phase test episodes', () => {
    const { datasets } = episodeReturnChartConfig(
      'test',
      report.phases[0]!.episodeReturns,
      'test',
    ).data;
    expect(datasets.map((dataset) => dataset.label)).toEqual([
      'test episodes',
      'evaluation episodes',
    ]);
  });

  it('draws each agent apart, not their sum, when there are several', () => {
    const returns: EpisodeReturn[] = [
      {
        episode: 1,
        evaluation: false,
        episodeReturn: 3,
        steps: 4,
        returnsByAgent: { north: 5, south: -2 },
      },
      {
        episode: 2,
        evaluation: false,
        episodeReturn: 4,
        steps: 4,
        returnsByAgent: { north: 7, south: -3 },
      },
      { episode: 3, evaluation: true, episodeReturn: 6, steps: 4, returnsByAgent: { north: 6 } },
    ];
    const config = episodeReturnChartConfig('train', returns);
    expect(config.data.datasets.map((dataset) => [dataset.label, dataset.data])).toEqual([
      [
        'north training',
        [
          { x: 1, y: 5 },
          { x: 2, y: 7 },
        ],
      ],
      [
        'south training',
        [
          { x: 1, y: -2 },
          { x: 2, y: -3 },
        ],
      ],
      ['north evaluation', [{ x: 3, y: 6 }]],
    ]);
    expect(config.options.plugins).toEqual({
      title: { display: true, text: 'train: episode returns per agent' },
      legend: { labels: { usePointStyle: true, boxHeight: 8 } },
    });
  });

  it("names each agent's episodes of a test phase test episodes, not training ones", () => {
    const returns: EpisodeReturn[] = [1, 2].map((episode) => ({
      episode,
      evaluation: false,
      episodeReturn: 0,
      steps: 4,
      returnsByAgent: { north: episode, south: -episode },
    }));
    const { datasets } = episodeReturnChartConfig('test', returns, 'test').data;
    expect(datasets.map((dataset) => dataset.label)).toEqual(['north test', 'south test']);
  });

  it('ticks an episode axis at whole episodes only, and a chosen-value axis freely', () => {
    const scales = (config: { options: Record<string, unknown> }) =>
      config.options.scales as Record<string, { ticks?: unknown }>;
    const returns = scales(episodeReturnChartConfig('train', report.phases[0]!.episodeReturns));
    expect(returns.x?.ticks).toEqual({ precision: 0 });
    const chosen = scales(studyChartConfig(study, 'grid.pv'));
    expect(chosen.x?.ticks).toBeUndefined();
  });
});

describe('studyChartConfig', () => {
  it("puts each phase's chosen value against its outcome, labelled, and stars the last decision", () => {
    const { datasets } = studyChartConfig(study, 'grid.pv').data;
    expect(datasets[0]).toMatchObject({
      label: 'phase outcome',
      data: [
        { x: 2, y: 3 },
        { x: 4, y: 5 },
      ],
      pointLabels: ['explore 3', `${hostile} 5`],
      showLine: false,
    });
    expect(datasets[1]).toMatchObject({
      label: `last decision (${hostile}): 4`,
      data: [{ x: 4, y: 5 }],
      pointStyle: 'star',
    });
  });

  it('leaves out phases without a numeric choice or an outcome', () => {
    const partial: StudySummary = {
      ...study,
      phases: [
        { ...study.phases[0]!, outcome: null },
        { ...study.phases[1]!, decision: { 'grid.pv': 'large' } },
      ],
    };
    const { datasets } = studyChartConfig(partial, 'grid.pv').data;
    expect(datasets).toHaveLength(1);
    expect(datasets[0]?.data).toEqual([]);
  });
});
