import type { Command } from 'commander';
import { RunNotFoundError } from '../../ports/storeErrors.js';
import { openStoreAsync, parseStoreUri } from '../../ports/storeUri.js';
import { buildRunReportHtml } from '../../report/buildRunReport.js';
import { CliError, ExitCode } from '../errors.js';
import { writeCommandOutput } from './diagram.js';

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
    .option(
      '--store <uri>',
      'the run store, sqlite:PATH or postgres://USER@HOST:PORT/DB (default: $ARENA_STORE, else sqlite:.arena/arena.db)',
    )
    .option(
      '--out <file>',
      'the HTML file to write, - for standard output (default: <run-id>.html)',
    )
    .action(async (runId: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<ReportCommandOptions>();
      const location = parseStoreUri(options.store);
      const store = await openStoreAsync(location, { readonly: true });
      let html: string;
      try {
        html = buildRunReportHtml(store, runId);
      } catch (error) {
        if (error instanceof RunNotFoundError) {
          throw new CliError(
            `no run '${runId}' in ${location.path} (arena runs lists the runs)`,
            ExitCode.badInput,
            { cause: error },
          );
        }
        throw error;
      } finally {
        store.close();
      }
      const out = options.out ?? `${runId}.html`;
      writeCommandOutput(html, out === '-' ? undefined : out);
    });
}
