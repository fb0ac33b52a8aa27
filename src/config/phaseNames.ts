import { isPlainObject } from '../domain/shared/json.js';
import type { PathSegment } from './configIssue.js';
import type { PathIssue } from './zodIssues.js';

/**
 * Name checks on a phase as written (raw YAML data), so they run even when
 * another part of the phase has a structural problem.
 */

/**
 * Duplicate environment UIDs and agent names in the lists a phase itself declares.
 *
 * @example
 * ```ts
 * duplicateNames({ agents: [{ name: 'a' }, { name: 'a' }] }, ['schedule', 0, 'train']);
 * // [{ segments: ['schedule', 0, 'train', 'agents', 1, 'name'],
 * //    message: 'duplicate agent name "a" (also at index 0): expected unique agent names' }]
 * ```
 */
export function duplicateNames(body: unknown, prefix: readonly PathSegment[]): PathIssue[] {
  if (!isPlainObject(body)) return [];
  return [
    ...duplicatesIn(
      body.environments,
      [...prefix, 'environments'],
      ['environment', 'uid'],
      'environment uid',
    ),
    ...duplicatesIn(body.agents, [...prefix, 'agents'], ['name'], 'agent name'),
  ];
}

function duplicatesIn(
  list: unknown,
  listPath: readonly PathSegment[],
  keys: readonly string[],
  what: string,
): PathIssue[] {
  const names = namesIn(list, keys);
  const issues: PathIssue[] = [];
  names.forEach((name, position) => {
    const first = names.indexOf(name);
    if (name !== undefined && first !== position) {
      issues.push({
        segments: [...listPath, position, ...keys],
        message: `duplicate ${what} ${JSON.stringify(name)} (also at index ${first}): expected unique ${what}s`,
      });
    }
  });
  return issues;
}

/** The string at `keys` inside each item of a raw list (`undefined` where there is none). */
function namesIn(list: unknown, keys: readonly string[]): (string | undefined)[] {
  if (!Array.isArray(list)) return [];
  return list.map((item) => {
    let current: unknown = item;
    for (const key of keys) current = isPlainObject(current) ? current[key] : undefined;
    return typeof current === 'string' ? current : undefined;
  });
}

/**
 * The names in a non-empty raw list whose every item has one, else `null`.
 *
 * @example
 * ```ts
 * declaredNames([{ name: 'meta' }, { name: 'operator' }], ['name']); // ['meta', 'operator']
 * declaredNames([{ name: 'meta' }, { brain: {} }], ['name']);        // null
 * ```
 */
export function declaredNames(list: unknown, keys: readonly string[]): string[] | null {
  const names = namesIn(list, keys);
  if (names.length === 0 || names.some((name) => name === undefined)) return null;
  return names as string[];
}
