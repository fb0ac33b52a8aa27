import type { Command } from 'commander';
import { runFileJsonSchema } from '../../config/runFileJsonSchema.js';

/**
 * `arena schema`: print the JSON Schema of run files, for editors. See
 * `runFileJsonSchema` for how to use it with the YAML language server.
 *
 * @example
 * ```sh
 * $ arena schema > run-file.schema.json
 * # then, first line of a run file:
 * # yaml-language-server: $schema=./run-file.schema.json
 * ```
 */
export function registerSchemaCommand(program: Command): void {
  program
    .command('schema')
    .description('print the JSON Schema of run files (for the YAML language server)')
    .action(() => {
      process.stdout.write(`${JSON.stringify(runFileJsonSchema(), null, 2)}\n`);
    });
}
