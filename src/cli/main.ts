#!/usr/bin/env node
import { ArenaError } from '../domain/shared/errors.js';
import { CliError, ExitCode } from './errors.js';
import { createProgram } from './program.js';

async function main(): Promise<void> {
  const program = createProgram();
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    process.exitCode = reportError(error);
  }
}

/** Print one clear line for an error and return the exit code it deserves. */
function reportError(error: unknown): number {
  if (error instanceof CliError) {
    process.stderr.write(`arena: ${error.message}\n`);
    return error.exitCode;
  }
  if (ArenaError.is(error)) {
    process.stderr.write(`arena: ${error.name}: ${error.message}\n`);
    return ExitCode.badInput;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`arena: unexpected error: ${message}\n`);
  return ExitCode.failed;
}

await main();
