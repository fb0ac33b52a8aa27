import { vendorScriptOnce } from '../html/vendorScript.js';

/**
 * Chart.js's browser bundle (`chart.js/dist/chart.umd.js`), ready to inline,
 * read once per process.
 *
 * @example
 * ```ts
 * const html = `<script>${chartJsScript()}</script>`; // defines window.Chart
 * ```
 */
export const chartJsScript: () => string = vendorScriptOnce(
  'chart.js',
  'chart.umd.js',
  'arena-runtime/report (HTML run reports)',
);

/**
 * The browser code that draws the page's charts: it reads the list of Chart.js
 * configurations from the JSON element `configsElementId`, draws configuration
 * `i` on `<canvas data-chart="i">`, keeps the charts in `window.arenaCharts`
 * and then sets `<html data-charts="rendered">`. A dataset with a
 * `pointLabels` list gets each label written beside its point, moved down
 * a line where it would cover an earlier one (configurations
 * are JSON, so this small plugin lives here rather than in them).
 *
 * @example
 * ```ts
 * const html = `<script>${chartJsScript()}</script><script>${chartClientScript('chart-configs')}</script>`;
 * ```
 */
export function chartClientScript(configsElementId: string): string {
  return `(() => {
  const configs = JSON.parse(document.getElementById(${JSON.stringify(configsElementId)}).textContent);
  const pointLabels = {
    id: 'arenaPointLabels',
    afterDatasetsDraw(chart) {
      const context = chart.ctx;
      chart.data.datasets.forEach((dataset, datasetIndex) => {
        const meta = chart.getDatasetMeta(datasetIndex);
        if (!Array.isArray(dataset.pointLabels) || meta.hidden) return;
        context.save();
        context.font = '12px system-ui, sans-serif';
        context.fillStyle = '#1f2933';
        context.textBaseline = 'middle';
        const placed = [];
        meta.data.forEach((point, pointIndex) => {
          const label = dataset.pointLabels[pointIndex];
          if (typeof label !== 'string') return;
          const width = context.measureText(label).width;
          let y = point.y;
          // Points with nearly the same position would print over each other: move down a line.
          const x = point.x + 9;
          const covers = (box) => Math.abs(box.y - y) < 14 && x < box.x + box.width && box.x < x + width;
          while (placed.some(covers)) y += 14;
          placed.push({ x, y, width });
          context.fillText(label, x, y);
        });
        context.restore();
      });
    },
  };
  window.arenaCharts = configs.map(
    (config, index) =>
      new Chart(document.querySelector('canvas[data-chart="' + index + '"]'), {
        ...config,
        plugins: [pointLabels],
      }),
  );
  document.documentElement.dataset.charts = 'rendered';
})();`;
}
