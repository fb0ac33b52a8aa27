import { resolveRunComponents } from './components.js';
import { loadRunFile } from './runFile.js';
import type { RunSpec } from './runSpec.js';

/**
 * Check a run file without running it: load and validate it, then resolve
 * every component it names (so a missing `./my-env.js` or an unknown
 * `arena:` built-in is reported too).
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
  const spec = await loadRunFile(filePath);
  await resolveRunComponents(spec, options);
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
