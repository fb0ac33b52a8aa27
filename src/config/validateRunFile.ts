import { resolveRunComponents } from './components.js';
import { parseYamlPath } from './configIssue.js';
import { parseRunFile, readRunFileText } from './runFile.js';
import { RunFileError } from './runFileError.js';
import type { RunSpec } from './runSpec.js';
import { readYamlSource } from './yamlSource.js';

/**
 * Check a run file without running it: load and validate it, then resolve
 * every component it names (so a missing `./my-env.js` or an unknown
 * `arena:` built-in is reported too, with its line and column).
 *
 * @throws {RunFileError} listing every problem: first those of the file
 * itself; when the file is valid, every component that does not resolve.
 * @example
 * ```ts
 * const spec = await validateRunFile('runs/grid.yaml', { builtins: builtinComponents });
 * describeRunSpec(spec); // 'ok: hosting-capacity, 2 phases (train, test), profile meta'
 * ```
 */
export async function validateRunFile(
  filePath: string,
  options: { readonly builtins: ReadonlyMap<string, unknown> },
): Promise<RunSpec> {
  const text = await readRunFileText(filePath);
  const spec = parseRunFile(text, { sourcePath: filePath });
  try {
    await resolveRunComponents(spec, options);
  } catch (error) {
    if (!(error instanceof RunFileError)) throw error;
    const source = readYamlSource(text);
    const located = error.issues.map((issue) => ({
      ...issue,
      location: issue.location ?? source.locate(parseYamlPath(issue.path) ?? []),
    }));
    throw new RunFileError(filePath, located, { cause: error });
  }
  return spec;
}

/**
 * One line that summarises a valid run spec: uid, phases and script profile
 * (per phase when the phases differ).
 *
 * @example
 * ```ts
 * describeRunSpec(spec);
 * // 'ok: hosting-capacity, 2 phases (train, test), profile meta'
 * // or, when phases differ: 'ok: demo, 2 phases (train, test), profile train: meta, test: generic'
 * ```
 */
export function describeRunSpec(spec: RunSpec): string {
  const names = spec.phases.map((phase) => phase.name);
  const profiles = spec.phases.map((phase) => phase.simulation.script.profile);
  const profile =
    new Set(profiles).size === 1
      ? profiles[0]
      : spec.phases.map((phase) => `${phase.name}: ${phase.simulation.script.profile}`).join(', ');
  const count = `${names.length} phase${names.length === 1 ? '' : 's'}`;
  return `ok: ${spec.uid}, ${count} (${names.join(', ')}), profile ${profile}`;
}
