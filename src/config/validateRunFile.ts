import { type ConfigIssue, parseYamlPath } from './configIssue.js';
import type { RunSpec } from './runSpec.js';
import { readYamlSource } from './yamlSource.js';

/**
 * Give each issue its line and column in `text` (the nearest node the file
 * has on its YAML path, when the path itself is not written there, e.g. an
 * inherited value), in document order; issues without a place keep their
 * order after the others.
 *
 * @example
 * ```ts
 * locateRunFileIssues('uid: x\nseed: -1\n', [{ path: 'seed', message: 'expected ...', location: null }]);
 * // [{ path: 'seed', message: 'expected ...', location: { line: 2, column: 7 } }]
 * ```
 */
export function locateRunFileIssues(text: string, issues: readonly ConfigIssue[]): ConfigIssue[] {
  const source = readYamlSource(text);
  const located = issues.map((issue) => ({
    ...issue,
    location: issue.location ?? source.locate(parseYamlPath(issue.path) ?? []),
  }));
  return located.sort(
    (a, b) =>
      (a.location?.line ?? Number.POSITIVE_INFINITY) -
        (b.location?.line ?? Number.POSITIVE_INFINITY) ||
      (a.location?.column ?? 0) - (b.location?.column ?? 0),
  );
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
