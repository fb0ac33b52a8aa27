import { readVendorScript } from '../diagram/vendorScript.js';

/**
 * Chart.js's browser bundle (`chart.js/dist/chart.umd.js`), ready to inline,
 * read once per process.
 *
 * @example
 * ```ts
 * const html = `<script>${chartJsScript()}</script>`; // defines window.Chart
 * ```
 */
export function chartJsScript(): string {
  chartSource ??= readVendorScript('chart.js', 'chart.umd.js');
  return chartSource;
}

let chartSource: string | undefined;

/**
 * The browser code that draws the page's charts: it reads the list of Chart.js
 * configurations from the JSON element `configsElementId`, draws configuration
 * `i` on `<canvas data-chart="i">`, keeps the charts in `window.arenaCharts`
 * and then sets `<html data-charts="rendered">`.
 *
 * @example
 * ```ts
 * const html = `<script>${chartJsScript()}</script><script>${chartClientScript('chart-configs')}</script>`;
 * ```
 */
export function chartClientScript(configsElementId: string): string {
  return `(() => {
  const configs = JSON.parse(document.getElementById(${JSON.stringify(configsElementId)}).textContent);
  window.arenaCharts = configs.map(
    (config, index) => new Chart(document.querySelector('canvas[data-chart="' + index + '"]'), config),
  );
  document.documentElement.dataset.charts = 'rendered';
})();`;
}
