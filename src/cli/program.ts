import { Command, Option } from 'commander';
import { LOG_LEVELS } from '../ports/logger.js';
import { registerCommands } from './commands/index.js';

/** Global options shared by every command. */
export interface GlobalOptions {
  logLevel: (typeof LOG_LEVELS)[number];
  json?: boolean;
}

/**
 * Build the `arena` command tree. Kept separate from `main.ts` so tests can run
 * commands in-process.
 */
export function createProgram(): Command {
  const program = new Command('arena')
    .description('arena: XState lifecycles for agent experiments')
    .version('0.1.0')
    .addOption(
      new Option('--log-level <level>', 'minimum log level').choices(LOG_LEVELS).default('warn'),
    )
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: true });
  registerCommands(program);
  return program;
}
