import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { AnyStateMachine } from 'xstate';
import { diagramHtmlPage } from '../../diagram/diagramHtml.js';
import { UnknownMachineError } from '../../diagram/errors.js';
import { machineNamed, machinesByName } from '../../diagram/machineCatalog.js';
import { toMermaid } from '../../diagram/mermaid.js';
import { toSvg } from '../../diagram/svg.js';
import { CliError, ExitCode } from '../errors.js';

interface DiagramCommandOptions {
  format: string;
  out?: string;
}

const formats = ['mermaid', 'html', 'svg'] as const;
type DiagramFormat = (typeof formats)[number];

/**
 * Register `arena diagram <machine>`: one of arena's machines as Mermaid
 * `stateDiagram-v2` text, as a self-contained HTML page that draws it
 * offline, or as a standalone SVG image laid out without a browser, all
 * generated from the machine definition.
 *
 * @example
 * ```ts
 * registerDiagramCommand(program);
 * // $ arena diagram evaluation-termination
 * // stateDiagram-v2
 * //   [*] --> active
 * //   ...
 * // $ arena diagram controller --format html --out controller.html
 * // wrote controller.html
 * // $ arena diagram judge --format svg --out judge.svg
 * // wrote judge.svg
 * ```
 */
export function registerDiagramCommand(program: Command): void {
  program
    .command('diagram')
    .description(
      'draw a machine from its definition: Mermaid stateDiagram-v2 text, an HTML page or an SVG image',
    )
    .argument('<machine>', [...machinesByName.keys()].join(', '))
    .option('--format <format>', 'mermaid, html or svg', 'mermaid')
    .option('--out <file>', 'write to this file instead of standard output')
    .action((machineName: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<DiagramCommandOptions>();
      const format = parseFormat(options.format);
      const machine = machineOrCliError(machineName);
      writeCommandOutput(diagramText(machine, machineName, format), options.out);
    });
}

/**
 * Print `text`, or write it to `outPath` (creating its folder) and print which
 * file was written.
 *
 * @example
 * ```ts
 * writeCommandOutput('<!doctype html>...', 'out/report.html');
 * // prints: wrote out/report.html
 * ```
 */
export function writeCommandOutput(text: string, outPath: string | undefined): void {
  if (outPath === undefined) {
    process.stdout.write(text);
    return;
  }
  try {
    mkdirSync(path.dirname(path.resolve(outPath)), { recursive: true });
    writeFileSync(outPath, text, 'utf8');
  } catch (error) {
    // A path the user named that cannot be written is bad input, as an unwritable --trace is.
    throw new CliError(
      `--out: cannot write ${outPath}: ${(error as Error).message}`,
      ExitCode.badInput,
      {
        cause: error,
      },
    );
  }
  process.stdout.write(`wrote ${outPath}\n`);
}

function diagramText(machine: AnyStateMachine, machineName: string, format: DiagramFormat): string {
  if (format === 'svg') return toSvg(machine);
  const mermaid = toMermaid(machine);
  if (format === 'mermaid') return mermaid;
  return diagramHtmlPage({
    title: `arena: ${machine.id} (${machineName})`,
    // arena's own drawing: Mermaid's in-browser layout cuts off long guard labels.
    diagrams: [{ heading: machine.id, mermaid, svg: toSvg(machine) }],
  });
}

function parseFormat(format: string): DiagramFormat {
  if ((formats as readonly string[]).includes(format)) return format as DiagramFormat;
  throw new CliError(
    `--format must be one of ${formats.join(', ')}, got '${format}'`,
    ExitCode.badInput,
  );
}

function machineOrCliError(name: string) {
  try {
    return machineNamed(name);
  } catch (error) {
    if (error instanceof UnknownMachineError) {
      throw new CliError(error.message, ExitCode.badInput, { cause: error });
    }
    throw error;
  }
}
