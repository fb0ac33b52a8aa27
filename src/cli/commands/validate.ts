import type { Command } from 'commander';
import { builtinComponents } from '../../builtins/index.js';
import { RunFileError } from '../../config/runFileError.js';
import { validateRunFile } from '../../config/runFileValidation.js';
import { describeRunSpec } from '../../config/validateRunFile.js';
import { CliError, ExitCode } from '../errors.js';

/**
 * `arena validate <run-file>`: check a run file without running it, exactly
 * as `arena run` checks it before it creates a run (`validateRunFile`).
 * Prints `ok: <uid>, N phases (names), profile meta|generic`, or every
 * problem (one per line, each with its YAML path, line and column) and exits
 * with 2.
 *
 * @example
 * ```sh
 * $ arena validate runs/grid.yaml
 * ok: hosting-capacity, 2 phases (train, test), profile meta
 * ```
 */
export function registerValidateCommand(
  program: Command,
  builtins: ReadonlyMap<string, unknown> = builtinComponents,
): void {
  program
    .command('validate')
    .description(
      'check a run file as arena run does (schema, lifecycle script, components and their params, definitions, termination rules) without running it',
    )
    .argument('<run-file>', 'the YAML run file')
    .action(async (runFile: string) => {
      try {
        const spec = await validateRunFile(runFile, { builtins });
        process.stdout.write(`${describeRunSpec(spec)}\n`);
      } catch (error) {
        if (error instanceof RunFileError) {
          throw new CliError(error.message, ExitCode.badInput, { cause: error });
        }
        throw error;
      }
    });
}
