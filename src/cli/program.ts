import { Command, Option } from 'commander';
import { DEFAULT_MAX_INPUT_BYTES, setMaxInputBytes } from '../config/inputFile.js';
import { LOG_LEVELS } from '../ports/runtime/logger.js';
import { registerCommands } from './commands/index.js';
import { CliError } from './errors.js';

/** Global options shared by every command. */
export interface GlobalOptions {
  logLevel: (typeof LOG_LEVELS)[number];
  json?: boolean;
  /** The input cap as typed (`1048576`, `8M`); see {@link parseByteCount}. */
  maxInputBytes?: string;
}

/**
 * Build the `arena` command tree. Kept separate from `main.ts` so tests can run
 * commands in-process. With `argv`, only the command it runs is loaded (see
 * `registerCommands`): start-up pays for that command alone.
 *
 * @example
 * ```ts
 * const program = await createProgram(process.argv);
 * await program.parseAsync(process.argv);
 * ```
 */
export async function createProgram(argv?: readonly string[]): Promise<Command> {
  const program = new Command('arena')
    .description('arena: XState lifecycles for agent experiments')
    .version('0.1.0')
    .addOption(
      new Option('--log-level <level>', 'minimum log level').choices(LOG_LEVELS).default('warn'),
    )
    .addOption(
      new Option(
        '--max-input-bytes <bytes>',
        'largest run file, judge config or rules file to read (e.g. 8M); default 1M',
      ),
    )
    .hook('preAction', (_program, actionCommand) => {
      const { maxInputBytes } = actionCommand.optsWithGlobals<GlobalOptions>();
      setMaxInputBytes(
        maxInputBytes === undefined ? DEFAULT_MAX_INPUT_BYTES : parseByteCount(maxInputBytes),
      );
    })
    .showHelpAfterError()
    // Usage errors reach main() as a CommanderError (commander has printed them) instead of exiting 1 there.
    .exitOverride()
    // One style for every error line: `arena: unknown option '--bogus'`, as arena's own errors read.
    .configureOutput({
      outputError: (text, write) => write(`arena: ${text.replace(/^error: /, '')}`),
    })
    .configureHelp({ sortSubcommands: true });
  await registerCommands(program, argv);
  return program;
}

const byteUnits: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * A byte count as a person types it: whole bytes, or K, M or G (powers of 1024).
 *
 * @throws CliError (exit code 2) naming `--max-input-bytes` and what it expects.
 * @example
 * ```ts
 * parseByteCount('8M'); // 8388608
 * parseByteCount('4096'); // 4096
 * ```
 */
export function parseByteCount(raw: string): number {
  const match = /^(\d+)\s*([kmg]?)(?:i?b)?$/i.exec(raw.trim());
  const bytes = match ? Number(match[1]) * (byteUnits[match[2]!.toLowerCase()] ?? 1) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new CliError(
      `--max-input-bytes: expected a positive number of bytes such as 1048576 or 8M, got ${JSON.stringify(raw)}`,
    );
  }
  return bytes;
}
