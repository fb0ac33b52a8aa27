import { formatNumber } from './formatNumber.js';
import type { EpisodeReturn, MetricSeries } from './reportTypes.js';

/** A Chart.js configuration as plain JSON (no functions), ready for `new Chart(canvas, config)`. */
export interface ChartConfig {
  readonly type: 'line';
  readonly data: { readonly datasets: readonly ChartDataset[] };
  readonly options: Readonly<Record<string, unknown>>;
}

/** One Chart.js dataset of `{ x, y }` points. */
export interface ChartDataset {
  readonly label: string;
  readonly data: ReadonlyArray<{ readonly x: number; readonly y: number | null }>;
  readonly [option: string]: unknown;
}

const colours = {
  metric: '#2563eb',
  threshold: '#dc2626',
  best: '#16a34a',
  training: '#2563eb',
  evaluation: '#ea580c',
} as const;

/**
 * The Chart.js line chart of one metric over the checkpoints (x: the episode
 * after which each was taken), with the success threshold as a dashed line and
 * the best value as a star.
 *
 * @example
 * ```ts
 * metricChartConfig(series).data.datasets.map((dataset) => dataset.label);
 * // ['operator objective', 'success threshold ≥ 0.8', 'best 0.95 (after episode 12)']
 * ```
 */
export function metricChartConfig(series: MetricSeries): ChartConfig {
  const points = series.points.map((point) => ({ x: point.afterEpisode, y: point.value }));
  const datasets: ChartDataset[] = [
    {
      label: `${series.agentName} ${series.metric}`,
      data: points,
      borderColor: colours.metric,
      backgroundColor: colours.metric,
      tension: 0,
    },
  ];
  if (series.threshold !== null && points.length > 0) {
    // A reduce, not Math.min(...xs): a long run has more points than a call has room for arguments.
    const first = points.reduce((low, point) => Math.min(low, point.x), Number.POSITIVE_INFINITY);
    const last = points.reduce((high, point) => Math.max(high, point.x), Number.NEGATIVE_INFINITY);
    const comparison = series.threshold.direction === 'greater_equal' ? '≥' : '≤';
    datasets.push({
      label: `success threshold ${comparison} ${formatNumber(series.threshold.value)}`,
      data: [
        { x: first, y: series.threshold.value },
        { x: last, y: series.threshold.value },
      ],
      borderColor: colours.threshold,
      backgroundColor: colours.threshold,
      borderDash: [6, 4],
      pointRadius: 0,
    });
  }
  if (series.best !== null) {
    datasets.push({
      label: `best ${formatNumber(series.best.value)} (after episode ${series.best.afterEpisode})`,
      data: [{ x: series.best.afterEpisode, y: series.best.value }],
      showLine: false,
      pointStyle: 'star',
      pointRadius: 12,
      borderWidth: 2,
      borderColor: colours.best,
      backgroundColor: colours.best,
    });
  }
  return lineChart(
    datasets,
    `${series.agentName}: ${series.metric} per evaluation checkpoint`,
    'episode (checkpoint taken after)',
    series.metric,
  );
}

/**
 * The Chart.js line chart of a phase's episode returns, training and
 * evaluation episodes as two datasets.
 *
 * @example
 * ```ts
 * episodeReturnChartConfig('train', returns).data.datasets.map((dataset) => dataset.label);
 * // ['training episodes', 'evaluation episodes']
 * ```
 */
export function episodeReturnChartConfig(
  phaseName: string,
  returns: readonly EpisodeReturn[],
): ChartConfig {
  const of = (evaluation: boolean) =>
    returns
      .filter((entry) => entry.evaluation === evaluation)
      .map((entry) => ({ x: entry.episode, y: entry.episodeReturn }));
  return lineChart(
    [
      {
        label: 'training episodes',
        data: of(false),
        borderColor: colours.training,
        backgroundColor: colours.training,
        tension: 0,
      },
      {
        label: 'evaluation episodes',
        data: of(true),
        borderColor: colours.evaluation,
        backgroundColor: colours.evaluation,
        borderDash: [4, 3],
        pointStyle: 'rectRot',
        pointRadius: 5,
        tension: 0,
      },
    ],
    `${phaseName}: episode returns`,
    'episode',
    'return',
  );
}

function lineChart(
  datasets: ChartDataset[],
  title: string,
  xTitle: string,
  yTitle: string,
): ChartConfig {
  return {
    type: 'line',
    data: { datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        x: { type: 'linear', title: { display: true, text: xTitle } },
        y: { title: { display: true, text: yTitle } },
      },
      plugins: { title: { display: true, text: title } },
    },
  };
}
