import type { Command } from 'commander';
import { CliError } from '../errors.js';

/** The schemas `arena schema` prints, by name; each loads only what it prints. */
const SCHEMAS: Readonly<Record<string, () => Promise<unknown>>> = {
  'run-file': async () => (await import('../../config/runFileJsonSchema.js')).runFileJsonSchema(),
  'judge-verdict': async () => {
    const [{ responseFormatOf }, { judgeResponseSchema }] = await Promise.all([
      import('../../ports/model/openaiProvider.js'),
      import('../../machines/judge.js'),
    ]);
    return responseFormatOf(judgeResponseSchema);
  },
};

/**
 * `arena schema [name]`: print the JSON Schema of run files (the default), for
 * editors (see `runFileJsonSchema` for the YAML language server), or with
 * `judge-verdict` the strict `response_format` every judge request sends: the
 * JSON a judge model must answer with.
 *
 * @example
 * ```sh
 * $ arena schema > run-file.schema.json
 * # then, first line of a run file:
 * # yaml-language-server: $schema=./run-file.schema.json
 * $ arena schema judge-verdict
 * # { "type": "json_schema", "json_schema": { "name": "arena_judge_result", "strict": true, "schema": { ... } } }
 * ```
 */
export function registerSchemaCommand(program: Command): void {
  program
    .command('schema')
    .description(
      'print the JSON Schema of run files (for the YAML language server), or with judge-verdict the response_format judges send',
    )
    .argument('[name]', `which schema: ${Object.keys(SCHEMAS).join(' or ')}`, 'run-file')
    .action(async (name: string) => {
      const schema = Object.hasOwn(SCHEMAS, name) ? SCHEMAS[name] : undefined;
      if (schema === undefined) {
        throw new CliError(
          `unknown schema '${name}': expected ${Object.keys(SCHEMAS).join(' or ')}`,
        );
      }
      process.stdout.write(`${JSON.stringify(await schema(), null, 2)}\n`);
    });
}
