import type { Command } from 'commander';

/** Every `arena` subcommand, registered in one place. */
export function registerCommands(program: Command): void {
  void program;
}
