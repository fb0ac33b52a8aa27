import { type NumberedEpisode, trainingEpisodesThrough } from '../domain/shared/episodeCounts.js';
import { formatNumber } from './formatNumber.js';
import type { EpisodeReturn, MetaDecisionRows, MetricSeries } from './reportTypes.js';

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

/** The colour of each kind of mark, shared by every chart. */
export const colours = {
  metric: '#2563eb',
  threshold: '#dc2626',
  best: '#16a34a',
  training: '#2563eb',
  evaluation: '#ea580c',
  smoothed: '#7c3aed',
  raw: '#93c5fd',
} as const;

/** One colour per agent, in the order agents first appear. */
const agentColours = ['#2563eb', '#ea580c', '#16a34a', '#7c3aed', '#db2777', '#0d9488'] as const;

/**
 * The Chart.js line chart of one metric over the checkpoints (x: the training
 * (or test) episodes finished when each was taken, counted from the phase's
 * `episodes` as every line of the report counts them), with the success
 * threshold as a dashed line.
 * For a plateau rule's metric it also draws the smoothed series the rule reads
 * and stars the best smoothed value the rule holds (the one the termination
 * evidence quotes); for any other metric the best raw value is starred.
 *
 * @example
 * ```ts
 * metricChartConfig(series, phase.episodeReturns).data.datasets.map((dataset) => dataset.label);
 * // ['operator objective', 'success threshold ≥ 0.8',
 * //  'smoothed: mean of the last 2 (the plateau rule reads it)', 'best smoothed 0.925 (after 10 training episodes)']
 * ```
 */
export function metricChartConfig(
  series: MetricSeries,
  episodes: readonly NumberedEpisode[],
  mode = 'train',
): ChartConfig {
  const counted = (afterEpisode: number) => trainingEpisodesThrough(episodes, afterEpisode);
  const noun = mode === 'test' ? 'test episodes' : 'training episodes';
  const points = series.points.map((point) => ({ x: counted(point.afterEpisode), y: point.value }));
  const { smoothed } = series;
  const datasets: ChartDataset[] = [
    {
      label: `${series.agentName} ${series.metric}`,
      data: points,
      borderColor: smoothed === null ? colours.metric : colours.raw,
      backgroundColor: smoothed === null ? colours.metric : colours.raw,
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
      pointStyle: 'line',
    });
  }
  if (smoothed !== null) {
    datasets.push({
      label: `smoothed: mean of the last ${smoothed.window} (the plateau rule reads it)`,
      data: smoothed.points.map((point) => ({ x: counted(point.afterEpisode), y: point.value })),
      borderColor: colours.smoothed,
      backgroundColor: colours.smoothed,
      borderWidth: 3,
      tension: 0,
    });
  }
  const best = smoothed === null ? series.best : smoothed.best;
  if (best !== null) {
    const kind = smoothed === null ? 'best' : 'best smoothed';
    datasets.push({
      label: `${kind} ${formatNumber(best.value)} (after ${counted(best.afterEpisode)} ${noun})`,
      data: [{ x: counted(best.afterEpisode), y: best.value }],
      showLine: false,
      pointStyle: 'star',
      pointRadius: 12,
      borderWidth: 2,
      borderColor: colours.best,
      backgroundColor: colours.best,
    });
  }
  const config = lineChart(
    datasets,
    `${series.agentName}: ${series.metric} per evaluation checkpoint`,
    `${noun} (checkpoint taken after)`,
    series.metric,
  );
  return best === null ? config : withGrace(config, '5%', '15%');
}

/**
 * The Chart.js line chart of a phase's episode returns, training (or, in a
 * `test` phase, test) and evaluation episodes apart. With several operating agents each agent gets
 * its own datasets (its return, not the sum), so a learner and a baseline can
 * be compared.
 *
 * @example
 * ```ts
 * episodeReturnChartConfig('train', returns).data.datasets.map((dataset) => dataset.label);
 * // ['training episodes', 'evaluation episodes']
 * episodeReturnChartConfig('train', twoAgentReturns).data.datasets.map((dataset) => dataset.label);
 * // ['north_operator training', 'south_operator training']
 * episodeReturnChartConfig('test', twoAgentReturns, 'test').data.datasets.map((dataset) => dataset.label);
 * // ['north_operator test', 'south_operator test']
 * ```
 */
export function episodeReturnChartConfig(
  phaseName: string,
  returns: readonly EpisodeReturn[],
  mode = 'train',
): ChartConfig {
  // A test phase's episodes run without learning, but they are not evaluation episodes either.
  const plain = mode === 'test' ? 'test' : 'training';
  const agents = [...new Set(returns.flatMap((entry) => Object.keys(entry.returnsByAgent)))];
  const perAgent = agents.length > 1;
  const datasets: ChartDataset[] = [];
  for (const evaluation of [false, true]) {
    const episodes = returns.filter((entry) => entry.evaluation === evaluation);
    if (perAgent) {
      agents.forEach((agentName, index) => {
        const data = episodes.flatMap((entry) => {
          const value = entry.returnsByAgent[agentName];
          return value === undefined ? [] : [{ x: entry.episode, y: value }];
        });
        if (data.length === 0) return;
        const colour = agentColours[index % agentColours.length] as string;
        datasets.push(
          returnDataset(
            `${agentName} ${evaluation ? 'evaluation' : plain}`,
            data,
            colour,
            evaluation,
          ),
        );
      });
    } else if (episodes.length > 0 || !evaluation) {
      datasets.push(
        returnDataset(
          evaluation ? 'evaluation episodes' : `${plain} episodes`,
          episodes.map((entry) => ({ x: entry.episode, y: entry.episodeReturn })),
          evaluation ? colours.evaluation : colours.training,
          evaluation,
        ),
      );
    }
  }
  return lineChart(
    datasets,
    `${phaseName}: episode returns${perAgent ? ' per agent' : ''}`,
    'episode',
    'return',
  );
}

function returnDataset(
  label: string,
  data: ChartDataset['data'],
  colour: string,
  evaluation: boolean,
): ChartDataset {
  const dataset: ChartDataset = {
    label,
    data,
    borderColor: colour,
    backgroundColor: colour,
    tension: 0,
  };
  return evaluation
    ? { ...dataset, borderDash: [4, 3], pointStyle: 'rectRot', pointRadius: 5 }
    : dataset;
}

/**
 * The Chart.js chart of a repeated meta loop's phase: the value each decision
 * chose for one selector, as a step over the episodes its world ran (right
 * axis), against the episode returns (left axis).
 *
 * @example
 * ```ts
 * metaLoopChartConfig('search', returns, decisions, 'midas.definition.pv_bus_6_peak_mw')
 *   .data.datasets.map((dataset) => dataset.label);
 * // ['training episodes', 'evaluation episodes', 'midas.definition.pv_bus_6_peak_mw chosen']
 * ```
 */
export function metaLoopChartConfig(
  phaseName: string,
  returns: readonly EpisodeReturn[],
  decisions: readonly MetaDecisionRows[],
  uid: string,
): ChartConfig {
  const last = returns.reduce((held, entry) => Math.max(held, entry.episode), 0);
  const steps = decisions.flatMap((decision, index) => {
    const value = decision.selectors.find((selector) => selector.uid === uid)?.candidate;
    if (typeof value !== 'number') return [];
    const end = (decisions[index + 1]?.firstEpisode ?? last + 1) - 1;
    return [
      { x: decision.firstEpisode, y: value },
      { x: Math.max(end, decision.firstEpisode), y: value },
    ];
  });
  const returnsChart = episodeReturnChartConfig(phaseName, returns);
  const datasets: ChartDataset[] = [
    ...returnsChart.data.datasets,
    {
      label: `${uid} chosen`,
      data: steps,
      yAxisID: 'decision',
      stepped: true,
      pointRadius: 0,
      pointStyle: 'line',
      borderWidth: 3,
      borderColor: colours.best,
      backgroundColor: colours.best,
    },
  ];
  const config = lineChart(
    datasets,
    `${phaseName}: the meta agent's decisions over the episodes, against the returns`,
    'episode',
    'return',
  );
  const scales = config.options.scales as Record<string, Record<string, unknown>>;
  return {
    ...config,
    options: {
      ...config.options,
      scales: {
        ...scales,
        decision: {
          position: 'right',
          // The legend names the selector: a long UID would not fit along the axis.
          title: { display: true, text: 'chosen value' },
          grid: { drawOnChartArea: false },
        },
      },
    },
  };
}

/** A line chart's configuration: responsive, not animated, titled, with titled axes. */
export function lineChart(
  datasets: ChartDataset[],
  title: string,
  xTitle: string,
  yTitle: string,
  episodeAxis = true,
): ChartConfig {
  // An episode axis counts whole episodes: no tick at episode 1.5.
  const xTicks = episodeAxis ? { ticks: { precision: 0 } } : {};
  return {
    type: 'line',
    data: { datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        x: { type: 'linear', title: { display: true, text: xTitle }, ...xTicks },
        y: { title: { display: true, text: yTitle } },
      },
      plugins: {
        title: { display: true, text: title },
        // Swatches drawn as the marks (dot, diamond, star, dashed line), not as boxes.
        legend: { labels: { usePointStyle: true, boxHeight: 8 } },
      },
    },
  };
}

/** `config` with room added beyond its data on both axes (Chart.js `grace`), so edge marks draw whole. */
export function withGrace(config: ChartConfig, xGrace: string, yGrace: string): ChartConfig {
  const scales = config.options.scales as Record<string, Record<string, unknown>>;
  return {
    ...config,
    options: {
      ...config.options,
      scales: { ...scales, x: { ...scales.x, grace: xGrace }, y: { ...scales.y, grace: yGrace } },
    },
  };
}
