#!/usr/bin/env node
import { CommanderError } from 'commander';
import { ArenaError } from '../domain/shared/errors.js';
import { arenaCommand } from '../ports/runtime/arenaCommand.js';
import { isServerFailure } from '../ports/runtime/serverFailure.js';
import { CliError, ExitCode } from './errors.js';
import { createProgram } from './program.js';

async function main(): Promise<void> {
  exitQuietlyWhenReaderLeaves(process.stdout);
  exitQuietlyWhenReaderLeaves(process.stderr);
  try {
    const program = await createProgram(process.argv);
    await program.parseAsync(process.argv);
  } catch (error) {
    process.exitCode = reportError(error);
  }
}

/**
 * When the reader of a pipe goes away (`arena runs | head -1`), stop at once
 * with the exit code so far, as a Unix tool killed by SIGPIPE would, instead of
 * dying on the EPIPE error Node raises (Node ignores SIGPIPE).
 */
function exitQuietlyWhenReaderLeaves(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok);
  });
}

/** Print one clear line for an error and return the exit code it deserves. */
function reportError(error: unknown): number {
  if (error instanceof CommanderError) {
    // Already printed by commander, with the help: `--help` and `--version` are 0, a usage error is bad input.
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.badInput;
  }
  if (error instanceof CliError) {
    process.stderr.write(`arena: ${error.message}\n`);
    return error.exitCode;
  }
  if (ArenaError.is(error)) {
    process.stderr.write(`arena: ${error.name}: ${error.message}\n`);
    return isServerFailure(error) ? ExitCode.unavailable : ExitCode.badInput;
  }
  if (isSqliteError(error)) {
    // damage found while reading (a page the open did not touch): the file, not arena, is at fault
    process.stderr.write(
      `arena: the store failed: ${error.message} (${error.code}); ${arenaCommand('check')} tells what is damaged\n`,
    );
    return ExitCode.badInput;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`arena: unexpected error: ${message}\n`);
  return ExitCode.failed;
}

function isSqliteError(error: unknown): error is Error & { code: string } {
  return error instanceof Error && error.name === 'SqliteError' && 'code' in error;
}

await main();
