import type { Command } from 'commander';
import { buildRunReportHtml } from '../../report/buildRunReport.js';
import { writeCommandOutput } from './diagram.js';
import { runStoreHelp, withRunStore } from './runStoreAccess.js';

interface ReportCommandOptions {
  store?: string;
  out?: string;
}

/**
 * Register `arena report <run-id>`: write a stored run's report as one
 * self-contained HTML page (charts and the lifecycle diagram work offline).
 * Without `--out` the page goes to `<run-id>.html`; `--out -` prints it.
 *
 * @example
 * ```ts
 * registerReportCommand(program);
 * // $ arena report grid-demo-20261129T200702-3fa2 --out report.html
 * // wrote report.html
 * ```
 */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      "write a stored run's HTML report: the study's answer across phases, then per phase the termination evidence, metrics, returns and meta decision",
    )
    .argument('<run-id>', 'the run, as `arena runs` lists it')
    .option('--store <uri>', runStoreHelp)
    .option(
      '--out <file>',
      'the HTML file to write, - for standard output (default: <run-id>.html)',
    )
    .action(async (runId: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<ReportCommandOptions>();
      const html = await withRunStore(options.store, (store) => buildRunReportHtml(store, runId));
      const out = options.out ?? `${runId}.html`;
      writeCommandOutput(html, out === '-' ? undefined : out);
    });
}
