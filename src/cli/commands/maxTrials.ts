import type { Command } from 'commander';
import { DEFAULT_MAX_TRIALS } from '../../domain/sweep/countTrials.js';
import { CliError } from '../errors.js';

/** The largest `--max-trials`: every trial's run file is made and checked in memory before the first runs. */
export const MAX_TRIALS_LIMIT = 100_000;

/**
 * Add `--max-trials <n>` to a command that reads sweep files.
 *
 * @example
 * ```ts
 * withMaxTrials(program.command('sweep'));
 * // arena sweep big.yaml --max-trials 20000
 * ```
 */
export function withMaxTrials(command: Command): Command {
  return command.option(
    '--max-trials <n>',
    `a sweep file: the most trials its search may make, counted before any is made (default ${DEFAULT_MAX_TRIALS}, at most ${MAX_TRIALS_LIMIT})`,
  );
}

/**
 * `--max-trials` as a number: a whole number from 1 to 100,000, else a
 * `CliError` (exit 2) naming the option.
 *
 * @example
 * ```ts
 * maxTrialsOf(undefined); // 10000
 * maxTrialsOf('0'); // CliError: --max-trials: expected a whole number from 1 to 100000, got "0"
 * ```
 */
export function maxTrialsOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_TRIALS;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > MAX_TRIALS_LIMIT) {
    throw new CliError(
      `--max-trials: expected a whole number from 1 to ${MAX_TRIALS_LIMIT}, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}
