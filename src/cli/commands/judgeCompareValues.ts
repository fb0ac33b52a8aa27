import type { JudgeResult } from '../../domain/judge/result.js';
import type { ComparedValue } from '../../domain/judge/runComparison.js';
import { CliError } from '../errors.js';

/** One side of a comparison: its values by key (case, subject, trial) and where they came from. */
export interface ComparedRun {
  /** What the user named: a file, or `evaluation run <id>`. */
  readonly source: string;
  readonly values: Map<string, ComparedValue>;
  /** Whether the values are the per-case `reduced` records of `--reduce`. */
  readonly reduced: boolean;
}

/** Values by key, refusing a key given twice (naming both lines). */
export class KeyedValues {
  readonly values = new Map<string, ComparedValue>();
  private readonly lines = new Map<string, number>();
  constructor(private readonly source: string) {}
  add(key: string, value: ComparedValue, line?: number): void {
    if (this.values.has(key)) {
      const first = this.lines.get(key);
      const where = line === undefined ? this.source : `${this.source}:${line}`;
      throw new CliError(
        `${where}: ${describeKey(key)} is given again${first === undefined ? '' : ` (first on line ${first})`}: a run judges each case (and trial) once`,
      );
    }
    this.values.set(key, value);
    if (line !== undefined) this.lines.set(key, line);
  }
}

/**
 * A judge result as a compared value, keyed by case, subject and trial.
 *
 * @example
 * ```ts
 * comparedResult({ ...passedResult, trial: 2 }); // { key: '["c1","c1",2]', value: { pass: 1, score: 1 } }
 * ```
 */
export function comparedResult(
  result: Pick<JudgeResult, 'caseId' | 'subjectId' | 'status' | 'score'> & {
    readonly trial?: number;
  },
): { key: string; value: ComparedValue } {
  return {
    key: JSON.stringify([result.caseId, result.subjectId, result.trial ?? 1]),
    value: {
      pass: result.status === 'passed' ? 1 : result.status === 'skipped' ? null : 0,
      score: result.score,
    },
  };
}

function describeKey(key: string): string {
  const [caseId, subjectId, trial] = JSON.parse(key) as [string, string, number | undefined];
  const subject = subjectId === caseId ? '' : ` for subject ${JSON.stringify(subjectId)}`;
  return `case id ${JSON.stringify(caseId)}${subject}${trial === undefined ? '' : `, trial ${trial}`}`;
}
