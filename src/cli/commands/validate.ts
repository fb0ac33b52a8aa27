import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { builtinComponents } from '../../builtins/index.js';
import type { ConfigIssue } from '../../config/configIssue.js';
import { RunFileError } from '../../config/runFileError.js';
import { validateRunFile } from '../../config/runFileValidation.js';
import { isSweepFileText, loadSweepFile, SweepFileError } from '../../config/sweepFile.js';
import { prepareSweepTrials } from '../../config/sweepTrials.js';
import { describeRunSpec } from '../../config/validateRunFile.js';
import { CliError, ExitCode } from '../errors.js';
import { maxTrialsOf, withMaxTrials } from './maxTrials.js';

/**
 * `arena validate <run-file>`: check a run file without running it, exactly
 * as `arena run` checks it before it creates a run (`validateRunFile`); a
 * sweep file (a top-level `sweep:` key) is checked as `arena sweep` checks
 * it, every trial's run file included.
 * Prints `ok: <uid>, N phases (names), profile meta|generic`, or every
 * problem (one per line, each with its YAML path, line and column) and exits
 * with 2. `--json` prints `{ ok, problems }` on stdout instead (see
 * {@link validationJson}), with the same exit codes.
 *
 * @example
 * ```sh
 * $ arena validate runs/grid.yaml
 * ok: hosting-capacity, 2 phases (train, test), profile meta
 * $ arena validate --json runs/typo.yaml
 * {"ok":false,"problems":[{"path":"seed","message":"expected a non-negative integer, got number -1","line":2,"column":7}]}
 * ```
 */
export function registerValidateCommand(
  program: Command,
  builtins: ReadonlyMap<string, unknown> = builtinComponents,
): void {
  const command = program
    .command('validate')
    .description(
      'check a run file as arena run does (schema, lifecycle script, components and their params, definitions, termination rules) without running it',
    )
    .argument('<run-file>', 'the YAML run file (or a sweep file)')
    .option(
      '--json',
      'print { ok, problems: [{ path, message, expected?, suggestion?, line?, column? }] }',
    );
  withMaxTrials(command).action(
    async (runFile: string, options: { json?: boolean; maxTrials?: string }) => {
      const maxTrials = maxTrialsOf(options.maxTrials);
      try {
        if (await isSweepFile(runFile)) {
          const { spec } = loadSweepFile(runFile);
          const trials = await prepareSweepTrials(spec, runFile, { builtins, maxTrials });
          process.stdout.write(
            options.json
              ? `${JSON.stringify(validationJson([]))}\n`
              : `ok: sweep ${spec.uid}, ${trials.length} trials of ${path.relative(process.cwd(), spec.runFile) || spec.runFile}, pruner ${spec.pruner.kind}${spec.pruner.rungs.length > 0 ? ` at ${spec.pruner.rungs.join(', ')} checkpoints` : ''}\n`,
          );
          return;
        }
        const spec = await validateRunFile(runFile, { builtins });
        process.stdout.write(
          options.json ? `${JSON.stringify(validationJson([]))}\n` : `${describeRunSpec(spec)}\n`,
        );
      } catch (error) {
        if (!(error instanceof RunFileError) && !(error instanceof SweepFileError)) throw error;
        if (!options.json) throw new CliError(error.message, ExitCode.badInput, { cause: error });
        process.stdout.write(`${JSON.stringify(validationJson(error.issues))}\n`);
        process.exitCode = ExitCode.badInput;
      }
    },
  );
}

/** Whether the file is a sweep file (a top-level `sweep:` key); an unreadable one is left to the run file's checks. */
async function isSweepFile(file: string): Promise<boolean> {
  try {
    return isSweepFileText(await readFile(file, 'utf8'));
  } catch {
    return false;
  }
}

/** One problem of `arena validate --json`: optional fields are left out, never `null`. */
export interface ValidationProblem {
  readonly path: string;
  readonly message: string;
  readonly expected?: string;
  readonly suggestion?: string;
  readonly line?: number;
  readonly column?: number;
}

/**
 * What `arena validate --json` prints: `ok` and every problem, each with its
 * YAML path (`''` for the whole file), message, what is accepted there and
 * the likely meant name when known, and its line and column.
 *
 * @example
 * ```ts
 * validationJson([{ path: 'x.episdoes', message: 'unknown key; ...', suggestion: 'episodes', location: { line: 3, column: 5 } }]);
 * // { ok: false, problems: [{ path: 'x.episdoes', message: 'unknown key; ...', suggestion: 'episodes', line: 3, column: 5 }] }
 * ```
 */
export function validationJson(issues: readonly ConfigIssue[]): {
  ok: boolean;
  problems: ValidationProblem[];
} {
  return {
    ok: issues.length === 0,
    problems: issues.map(({ path, message, expected, suggestion, location }) => ({
      path,
      message,
      ...(expected !== undefined ? { expected } : {}),
      ...(suggestion !== undefined ? { suggestion } : {}),
      ...(location !== null ? { line: location.line, column: location.column } : {}),
    })),
  };
}
