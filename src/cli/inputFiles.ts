import { readInputText } from '../config/inputFile.js';
import { parseYamlWithKeyOrder } from '../config/orderedYaml.js';
import { ArenaError } from '../domain/shared/errors.js';
import { cannotReadFile } from '../ports/runtime/unreadableFile.js';
import { CliError } from './errors.js';

/**
 * Read and parse a YAML (or JSON) input file the CLI was given, within the
 * input cap and the alias limit.
 *
 * @throws CliError (exit code 2) `<path>: cannot read the file (ENOENT)` or
 *   `<path>: invalid YAML: line L, column C: ...`.
 * @throws InputTooLargeError when the file is over `--max-input-bytes`.
 * @example
 * ```ts
 * readYamlInputFile('examples/termination/rules.yaml'); // { agents: { PPO: ..., SAC: ... }, phase: ... }
 * ```
 */
export function readYamlInputFile(filePath: string): unknown {
  return readYamlInput(filePath).value;
}

/**
 * Like `readYamlInputFile`, with the text it read (for a caller that parses it again, as a run file).
 *
 * @example
 * ```ts
 * const { text, value } = readYamlInput('examples/hosting-capacity.yaml');
 * ```
 */
export function readYamlInput(filePath: string): { text: string; value: unknown } {
  let text: string;
  try {
    text = readInputText(filePath);
  } catch (error) {
    if (ArenaError.is(error)) throw error;
    throw new CliError(cannotReadFile(filePath, error), undefined, { cause: error });
  }
  try {
    return { text, value: parseYamlWithKeyOrder(text).value };
  } catch (error) {
    if (!ArenaError.is(error)) throw error;
    throw new CliError(`${filePath}: invalid YAML: ${error.message}`, undefined, { cause: error });
  }
}
