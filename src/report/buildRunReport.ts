import { toSvg } from '../diagram/svg.js';
import { simulationControllerMachine } from '../machines/simulationController.js';
import type { RunStore } from '../ports/store/store.js';
import { collectRunReport } from './collectRunReport.js';
import { runReportHtml } from './reportHtml.js';

/**
 * The HTML run report of a stored run (see `runReportHtml`), with the
 * controller's lifecycle drawn (as SVG) from `simulationControllerMachine`.
 *
 * @throws RunNotFoundError when the store has no such run.
 * @example
 * ```ts
 * const store = openStore(parseStoreUri('sqlite:.arena/arena.db'));
 * writeFileSync('report.html', buildRunReportHtml(store, 'grid-demo-20261129T200702-3fa2'));
 * ```
 */
export function buildRunReportHtml(store: RunStore, runId: string): string {
  return runReportHtml(collectRunReport(store, runId), {
    controllerSvg: toSvg(simulationControllerMachine),
  });
}
