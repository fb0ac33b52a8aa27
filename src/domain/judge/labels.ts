import { z } from 'zod';
import { ratingAgreementAccumulator } from './agreement.js';
import { JudgeLabelsError } from './errors.js';

/** The statuses a person may give a case. */
export const LABEL_STATUSES = ['passed', 'failed', 'skipped'] as const;

/** What a pairwise label names when neither system is better. */
export const PAIRWISE_TIE = 'tie';

/**
 * One line of a labels file: a person's verdict (and score) for one case. The
 * verdict is a status (`passed`, `failed`, `skipped`), or for a pairwise
 * judge's case the winning system or `tie`.
 */
export interface HumanLabel {
  readonly caseId: string;
  readonly verdict: string;
  readonly score: number | null;
  readonly annotator: string | null;
}

const annotator = z.string().min(1).nullable().optional();

const statusLineSchema = z.strictObject({
  case_id: z.string().min(1),
  status: z.enum(LABEL_STATUSES),
  score: z.number().finite().nullable().optional(),
  annotator,
});

const winnerLineSchema = z.strictObject({
  case_id: z.string().min(1),
  winner: z.string().min(1),
  annotator,
});

/**
 * Read one line of a labels file: `{"case_id", "status", "score"?, "annotator"?}`,
 * or for a pairwise judge (`mode` `pairwise`) `{"case_id", "winner": "<system>"|"tie", "annotator"?}`.
 * A label of the other kind is refused, naming its field.
 *
 * @throws JudgeLabelsError naming the file, the line and the field.
 * @example
 * ```ts
 * parseLabelLine('{"case_id":"c1","status":"passed","annotator":"ana"}', 'labels.jsonl', 1);
 * // { caseId: 'c1', verdict: 'passed', score: null, annotator: 'ana' }
 * parseLabelLine('{"case_id":"c1","winner":"tie"}', 'labels.jsonl', 1, 'pairwise');
 * // { caseId: 'c1', verdict: 'tie', score: null, annotator: null }
 * parseLabelLine('{"case_id":"c1","status":"pass"}', 'labels.jsonl', 2);
 * // throws JudgeLabelsError: labels.jsonl:2: status: Invalid option: expected one of "passed"|"failed"|"skipped"
 * ```
 */
export function parseLabelLine(
  text: string,
  file: string,
  line: number,
  mode: 'single' | 'pairwise' = 'single',
): HumanLabel {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JudgeLabelsError(`${file}:${line}: not valid JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
  const other = mode === 'pairwise' ? 'status' : 'winner';
  if (typeof value === 'object' && value !== null && other in value) {
    throw new JudgeLabelsError(
      mode === 'pairwise'
        ? `${file}:${line}: status: the judge is pairwise: a label names the better system, {"case_id", "winner": "<system>"|"tie", "annotator"?}`
        : `${file}:${line}: winner: the judge is not pairwise: a label gives a status, {"case_id", "status": "passed"|"failed"|"skipped", "score"?, "annotator"?}`,
    );
  }
  const parsed = (mode === 'pairwise' ? winnerLineSchema : statusLineSchema).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // a field arena does not know is named as the field, not as the line
    const unknown = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    const field = unknown ?? (issue.path.join('.') || '(line)');
    throw new JudgeLabelsError(`${file}:${line}: ${field}: ${issue.message}`);
  }
  const label = parsed.data;
  return {
    caseId: label.case_id,
    verdict: 'winner' in label ? label.winner : label.status,
    score: 'score' in label ? (label.score ?? null) : null,
    annotator: label.annotator ?? null,
  };
}

/** The people's reference of one case: the majority verdict and the mean score. */
export interface CaseReference {
  readonly verdict: string;
  readonly score: number | null;
}

/** The references of the labelled cases, and what the annotators' own agreement is. */
export interface LabelReferences {
  /** Case id to its reference (cases whose annotators tied are not here). */
  readonly references: ReadonlyMap<string, CaseReference>;
  /** Cases whose annotators tied on the verdict: left out, counted. */
  readonly annotatorTies: readonly string[];
  /** Annotators seen (by name; unnamed labels are one anonymous annotator each). */
  readonly annotators: readonly string[];
  /** Fleiss' kappa among the named annotators over the cases all of them labelled; `null` with fewer than two. */
  readonly annotatorKappa: number | null;
  readonly annotatorKappaCases: number;
}

/**
 * The reference of each case from its labels: the verdict most annotators
 * gave (a tie among the most leaves the case out, counted), the mean of the
 * scores given; and the annotators' own agreement (Fleiss 1971), the ceiling
 * a judge can reach.
 *
 * @example
 * ```ts
 * const { references, annotatorTies } = labelReferences([
 *   { caseId: 'a', verdict: 'passed', score: 1, annotator: 'ana' },
 *   { caseId: 'a', verdict: 'passed', score: 0.8, annotator: 'bo' },
 *   { caseId: 'b', verdict: 'passed', score: null, annotator: 'ana' },
 *   { caseId: 'b', verdict: 'failed', score: null, annotator: 'bo' },
 * ]);
 * references.get('a'); // { verdict: 'passed', score: 0.9 }
 * annotatorTies; // ['b']
 * ```
 */
export function labelReferences(labels: Iterable<HumanLabel>): LabelReferences {
  const byCase = new Map<string, HumanLabel[]>();
  const annotators = new Set<string>();
  for (const label of labels) {
    const list = byCase.get(label.caseId);
    if (list === undefined) byCase.set(label.caseId, [label]);
    else list.push(label);
    if (label.annotator !== null) annotators.add(label.annotator);
  }
  const references = new Map<string, CaseReference>();
  const annotatorTies: string[] = [];
  const names = [...annotators].sort();
  const agreement = ratingAgreementAccumulator();
  for (const [caseId, list] of byCase) {
    const counts = new Map<string, number>();
    for (const label of list) counts.set(label.verdict, (counts.get(label.verdict) ?? 0) + 1);
    const most = Math.max(...counts.values());
    const leaders = [...counts].filter(([, count]) => count === most);
    const scores = list.map((label) => label.score).filter((score) => score !== null);
    if (leaders.length > 1) annotatorTies.push(caseId);
    else {
      references.set(caseId, {
        verdict: leaders[0]![0],
        score: scores.length === 0 ? null : scores.reduce((a, b) => a + b, 0) / scores.length,
      });
    }
    if (names.length >= 2) {
      agreement.add(
        names.map((name) => list.find((label) => label.annotator === name)?.verdict ?? null),
      );
    }
  }
  const ceiling = names.length >= 2 ? agreement.agreement() : null;
  return {
    references,
    annotatorTies,
    annotators: names,
    annotatorKappa: ceiling?.kappa ?? null,
    annotatorKappaCases: ceiling?.subjects ?? 0,
  };
}
