import { z } from 'zod';
import { runFileSchema } from './runFileSchema.js';

/**
 * The JSON Schema (draft-07) of an arena run file, for editors. It describes
 * the file as written (inputs: keys with defaults are optional). Save it and
 * point the YAML language server (VS Code's YAML extension, Neovim's yamlls)
 * at it with a modeline on the first line of the run file:
 *
 * ```yaml
 * # yaml-language-server: $schema=./run-file.schema.json
 * uid: hosting-capacity
 * ```
 *
 * or map it to a glob in the editor settings
 * (`"yaml.schemas": { "./run-file.schema.json": "runs/*.yaml" }`). Semantic
 * rules (the lifecycle-script profile, duplicate names, one key per phase) are
 * checked by `arena validate`, not by the schema.
 *
 * @example
 * ```ts
 * const schema = runFileJsonSchema();
 * schema.required; // ['uid', 'seed', 'version', 'schedule']
 * ```
 */
export function runFileJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(runFileSchema, { target: 'draft-07', io: 'input' }),
    title: 'arena run file',
  };
}
