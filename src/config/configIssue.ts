/** One step of a path into a YAML document: a mapping key or a list index. */
export type PathSegment = string | number;

/** A line and column in a source file, both starting at 1. */
export interface SourceLocation {
  readonly line: number;
  readonly column: number;
}

/**
 * One problem in a configuration file: where it is (a YAML path such as
 * `schedule[0].train.simulation.params.script.loop`, `''` for the whole
 * document), what was expected, and the line and column when known.
 */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
  readonly location: SourceLocation | null;
  /** What is accepted there, when the message names it (`one of: mode, worker, ...`). */
  readonly expected?: string;
  /** The accepted name a misspelt one most likely meant (`episodes`, `arena:CrossEntropyBrain`). */
  readonly suggestion?: string;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * Format path segments the way arena names places in a run file: keys joined
 * by dots, list indices in brackets, unusual keys quoted in brackets.
 *
 * @example
 * ```ts
 * formatYamlPath(['schedule', 0, 'train', 'agents', 1, 'brain']);
 * // 'schedule[0].train.agents[1].brain'
 * formatYamlPath(['params', 'a.b']);
 * // 'params["a.b"]'
 * ```
 */
export function formatYamlPath(segments: readonly PathSegment[]): string {
  let text = '';
  for (const segment of segments) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

const SEGMENT = /\.?([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;

/**
 * The inverse of {@link formatYamlPath}: split a YAML path into its segments.
 * Returns `null` when the text is not a path `formatYamlPath` could print.
 *
 * @example
 * ```ts
 * parseYamlPath('schedule[0].train.agents[1].brain');
 * // ['schedule', 0, 'train', 'agents', 1, 'brain']
 * ```
 */
export function parseYamlPath(path: string): PathSegment[] | null {
  const segments: PathSegment[] = [];
  SEGMENT.lastIndex = 0;
  while (SEGMENT.lastIndex < path.length) {
    const match = SEGMENT.exec(path);
    if (match === null) return null;
    const [, key, index, quoted] = match;
    if (key !== undefined) segments.push(key);
    else if (index !== undefined) segments.push(Number(index));
    else segments.push(JSON.parse(quoted as string) as string);
  }
  return segments;
}

/**
 * Render one issue as one line: `path: message (line L, column C)`.
 *
 * @example
 * ```ts
 * formatIssue({ path: 'seed', message: 'expected a non-negative integer, got -1', location: { line: 2, column: 7 } });
 * // 'seed: expected a non-negative integer, got -1 (line 2, column 7)'
 * ```
 */
export function formatIssue(issue: ConfigIssue): string {
  const where = issue.location
    ? ` (line ${issue.location.line}, column ${issue.location.column})`
    : '';
  return issue.path === '' ? `${issue.message}${where}` : `${issue.path}: ${issue.message}${where}`;
}
