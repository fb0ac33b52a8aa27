import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../../src/cli/commands/index.js';

async function registered(argv?: string[]): Promise<string[]> {
  const program = new Command('arena');
  await registerCommands(program, argv);
  return program.commands.map((command) => command.name()).sort();
}

describe('registerCommands', () => {
  it('registers only the command argv runs, past global options and their values', async () => {
    expect(
      await registered(['node', 'arena', 'judge', 'cases.jsonl', '--config', 'j.yaml']),
    ).toEqual(['judge']);
    expect(
      await registered(['node', 'arena', '--log-level', 'debug', '--max-input-bytes', '8M', 'run']),
    ).toEqual(['run']);
    expect(await registered(['node', 'arena', '--log-level=debug', 'validate', 'x.yaml'])).toEqual([
      'validate',
    ]);
  });

  it('loads the module of a command another module registers (show with runs)', async () => {
    expect(await registered(['node', 'arena', 'show', 'run-1'])).toEqual(['runs', 'show']);
  });

  it('registers every command for help, an unknown name or no argv', async () => {
    const all = await registered();
    expect(all).toEqual(expect.arrayContaining(['judge', 'run', 'runs', 'show', 'termination']));
    expect(await registered(['node', 'arena', '--help'])).toEqual(all);
    expect(await registered(['node', 'arena', 'help', 'judge'])).toEqual(all);
    expect(await registered(['node', 'arena', 'jduge'])).toEqual(all);
  });
});
