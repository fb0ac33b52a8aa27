import { ArenaError } from '../domain/shared/errors.js';
import { type ConfigIssue, formatIssue } from './configIssue.js';

/**
 * A run file that cannot be used. It holds every problem found in the file at
 * once (`issues`), each naming its YAML path and what was expected; the
 * message lists them one per line.
 *
 * @example
 * ```ts
 * try { parseRunFile(text, { sourcePath: 'run.yaml' }); }
 * catch (error) { if (error instanceof RunFileError) console.log(error.message); }
 * // run.yaml: invalid run file, 1 problem:
 * //   schedule[0].train.phase_config.episdoes: unknown key (expected one of: mode, worker, episodes, evaluate_every, max_steps) (line 14, column 9)
 * ```
 */
export class RunFileError extends ArenaError {
  /** Every problem in the file, in document order of discovery. */
  readonly issues: readonly ConfigIssue[];
  /** The file the issues are about. */
  readonly sourcePath: string;

  /** `message`: one line instead of the list, for a file that could not be read at all. */
  constructor(
    sourcePath: string,
    issues: readonly ConfigIssue[],
    options?: { cause?: unknown; message?: string },
  ) {
    super(
      'RUN_FILE',
      options?.message ?? describeIssues(sourcePath, 'invalid run file', issues),
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.issues = issues;
    this.sourcePath = sourcePath;
  }
}

/**
 * The base of an error about another kind of arena file with a list of issues
 * (a sweep file): the same fields and message shape as `RunFileError`, its
 * own code, and not caught as a run file's error.
 *
 * @example
 * ```ts
 * class SweepFileError extends FileIssuesError {
 *   constructor(sourcePath: string, issues: readonly ConfigIssue[]) {
 *     super('SWEEP_FILE', 'invalid sweep file', sourcePath, issues);
 *   }
 * }
 * ```
 */
export abstract class FileIssuesError extends ArenaError {
  readonly issues: readonly ConfigIssue[];
  readonly sourcePath: string;

  protected constructor(
    code: string,
    what: string,
    sourcePath: string,
    issues: readonly ConfigIssue[],
    options?: { cause?: unknown },
  ) {
    super(code, describeIssues(sourcePath, what, issues), options);
    this.issues = issues;
    this.sourcePath = sourcePath;
  }
}

/**
 * `<source>: <what>, N problems:` followed by one indented line per issue.
 *
 * @example
 * ```ts
 * describeIssues('run.yaml', 'invalid run file', [{ path: 'seed', message: 'expected a non-negative integer, got number -1', location: null }]);
 * // 'run.yaml: invalid run file, 1 problem:\n  seed: expected a non-negative integer, got number -1'
 * ```
 */
export function describeIssues(
  source: string,
  what: string,
  issues: readonly ConfigIssue[],
): string {
  const count = `${issues.length} problem${issues.length === 1 ? '' : 's'}`;
  const lines = issues.map((issue) => `  ${formatIssue(issue)}`);
  return [`${source}: ${what}, ${count}:`, ...lines].join('\n');
}
