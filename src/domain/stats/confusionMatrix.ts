import { StatisticsInputError } from './errors.js';

/**
 * Counts of two raters' labels side by side: `matrix[i][j]` is how many
 * items the first rater (the judge) put in `labels[i]` and the second (the
 * reference) in `labels[j]`. Rows the judge, columns the reference: the
 * transpose of scikit-learn's `confusion_matrix(reference, judge)`.
 */
export interface ConfusionMatrix {
  readonly labels: readonly string[];
  readonly matrix: readonly (readonly number[])[];
}

/**
 * The confusion matrix of two label lists of one length (Stehman 1997), over
 * `labels` (default: every label either uses, sorted). A label outside
 * `labels` is an error.
 *
 * @example
 * ```ts
 * confusionMatrix(['passed', 'passed', 'failed'], ['passed', 'failed', 'failed']);
 * // { labels: ['failed', 'passed'], matrix: [[1, 0], [1, 1]] }
 * ```
 */
export function confusionMatrix(
  judge: readonly string[],
  reference: readonly string[],
  labels: readonly string[] = [...new Set([...judge, ...reference])].sort(),
): ConfusionMatrix {
  if (judge.length !== reference.length) {
    throw new StatisticsInputError(
      `confusion matrix: the judge gave ${judge.length} labels and the reference ${reference.length}; expected one of each per item`,
    );
  }
  const index = new Map(labels.map((label, position) => [label, position]));
  const matrix = labels.map(() => new Array<number>(labels.length).fill(0));
  judge.forEach((label, item) => {
    const row = index.get(label);
    const column = index.get(reference[item]!);
    if (row === undefined || column === undefined) {
      throw new StatisticsInputError(
        `confusion matrix: item ${item} has label ${JSON.stringify(row === undefined ? label : reference[item])}, not one of ${JSON.stringify(labels)}`,
      );
    }
    matrix[row]![column]! += 1;
  });
  return { labels: [...labels], matrix };
}
