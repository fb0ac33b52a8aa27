import { vendorScriptOnce } from '../html/vendorScript.js';
import { pointLayoutPluginSource } from './pointLayoutScript.js';

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
 * `pointLabels` list gets its marks parted and each label written beside its
 * point (see `pointLayoutPluginSource`; configurations are JSON, so the plugin
 * lives here rather than in them).
 *
 * @example
 * ```ts
 * const html = `<script>${chartJsScript()}</script><script>${chartClientScript('chart-configs')}</script>`;
 * ```
 */
export function chartClientScript(configsElementId: string): string {
  return `(() => {
  const configs = JSON.parse(document.getElementById(${JSON.stringify(configsElementId)}).textContent);
  ${pointLayoutPluginSource}
  // A labelled point's tooltip says what its label says (an off-scale mark's real value too).
  const labelTooltip = (item) =>
    item.dataset.pointLabels?.[item.dataIndex] ?? item.dataset.label + ': ' + item.formattedValue;
  window.arenaCharts = configs.map(
    (config, index) =>
      new Chart(document.querySelector('canvas[data-chart="' + index + '"]'), {
        ...config,
        options: {
          ...config.options,
          plugins: { ...config.options.plugins, tooltip: { callbacks: { label: labelTooltip } } },
        },
        plugins: [pointLayout],
      }),
  );
  document.documentElement.dataset.charts = 'rendered';
})();`;
}
