import {
  type ChartConfig,
  type ChartDataset,
  colours,
  lineChart,
  withGrace,
} from './chartConfigs.js';
import { formatNumber } from './formatNumber.js';
import { axisFences } from './offScale.js';
import type { StudySummary } from './reportTypes.js';

/**
 * The Chart.js chart of a study's answer for one selector: each phase's
 * chosen value (x) against the phase's outcome (y), one point per phase
 * labelled with its name and outcome, the last decision starred. An outcome
 * beyond Tukey's fences (`axisFences`) would stretch the axis until the
 * outcomes near the peak look equal: it is drawn at the axis's edge as a
 * triangle pointing off the scale, its label saying so.
 *
 * @example
 * ```ts
 * studyChartConfig(study, 'midas.definition.pv_bus_6_peak_mw').data.datasets.map((d) => d.label);
 * // ['phase outcome', 'last decision (test): 4.4']
 * studyChartConfig(study, 'midas.definition.pv_bus_6_peak_mw').data.datasets[0].pointLabels;
 * // ['explore_1 13.5153', 'explore_2 29.9433', …, 'explore_5 -193.751 (off scale)', 'tune 19.8873', 'test 28.0784']
 * ```
 */
export function studyChartConfig(study: StudySummary, uid: string): ChartConfig {
  const points = study.phases.flatMap((phase) => {
    const value = phase.decision?.[uid];
    return typeof value === 'number' && phase.outcome !== null
      ? [{ x: value, y: phase.outcome.value, name: phase.name }]
      : [];
  });
  const fences = axisFences(points.map((point) => point.y));
  const edge = offScaleEdges(points.map((point) => point.y).filter((y) => inside(y, fences)));
  const plotted = points.map(({ x, y }) => ({
    x,
    y: y < fences.low ? edge.low : y > fences.high ? edge.high : y,
  }));
  const last = plotted.at(-1);
  const datasets: ChartDataset[] = [
    {
      label: 'phase outcome',
      // An outlier sits at the axis's edge as a triangle pointing off it; its label has the value.
      data: plotted,
      pointLabels: points.map(
        (point) =>
          `${point.name} ${formatNumber(point.y)}${inside(point.y, fences) ? '' : ' (off scale)'}`,
      ),
      pointStyle: points.map((point) => (inside(point.y, fences) ? 'circle' : 'triangle')),
      rotation: points.map((point) => (point.y < fences.low ? 180 : 0)),
      showLine: false,
      pointRadius: 6,
      borderColor: colours.metric,
      backgroundColor: colours.metric,
    },
  ];
  if (last !== undefined) {
    datasets.push({
      label: `last decision (${points.at(-1)?.name}): ${formatNumber(last.x)}`,
      data: [last],
      // The client draws the star on the phase's own mark, wherever overlapping marks moved it.
      marksPoint: points.length - 1,
      showLine: false,
      pointStyle: 'star',
      pointRadius: 11,
      borderWidth: 2,
      borderColor: colours.best,
      backgroundColor: colours.best,
    });
  }
  const config = lineChart(
    datasets,
    `${uid} chosen by the meta agent, against the phase's outcome`,
    `${uid} (chosen value)`,
    'phase outcome (mean return)',
    false,
  );
  // Room at the edges keeps the marks, the star and the point labels inside the chart.
  return withGrace(config, '8%', '10%');
}

function inside(value: number, fences: { low: number; high: number }): boolean {
  return value >= fences.low && value <= fences.high;
}

/** Where off-scale marks sit: a tenth of the shown range beyond the values on the scale. */
function offScaleEdges(shown: readonly number[]): { low: number; high: number } {
  const low = shown.reduce((held, value) => Math.min(held, value), Number.POSITIVE_INFINITY);
  const high = shown.reduce((held, value) => Math.max(held, value), Number.NEGATIVE_INFINITY);
  const margin = high > low ? (high - low) / 10 : 1;
  return { low: low - margin, high: high + margin };
}
