import type { ConfusionMatrix } from './confusionMatrix.js';

/** Precision, recall and F1 of one label, the reference as truth; `null` where a share is 0 / 0. */
export interface LabelScores {
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
  /** Items the reference put in this label. */
  readonly support: number;
}

/**
 * Per-label precision, recall, F1 and support of a confusion matrix (rows the
 * judge, columns the reference as truth), as scikit-learn's
 * `precision_recall_fscore_support` (van Rijsbergen 1979 for F1):
 * precision = tp / what the judge put in the label, recall = tp / what the
 * reference put there, F1 their harmonic mean (0 when both are 0).
 *
 * @example
 * ```ts
 * labelScores({ labels: ['failed', 'passed'], matrix: [[2, 1], [1, 4]] });
 * // { failed: { precision: 0.6667, recall: 0.6667, f1: 0.6667, support: 3 },
 * //   passed: { precision: 0.8, recall: 0.8, f1: 0.8, support: 5 } }
 * ```
 */
export function labelScores(confusion: ConfusionMatrix): Record<string, LabelScores> {
  const { labels, matrix } = confusion;
  const scores: Record<string, LabelScores> = {};
  labels.forEach((label, index) => {
    const truePositives = matrix[index]![index]!;
    const judged = matrix[index]!.reduce((sum, count) => sum + count, 0);
    const support = matrix.reduce((sum, row) => sum + row[index]!, 0);
    const precision = judged === 0 ? null : truePositives / judged;
    const recall = support === 0 ? null : truePositives / support;
    const f1 =
      precision === null || recall === null
        ? null
        : precision + recall === 0
          ? 0
          : (2 * precision * recall) / (precision + recall);
    scores[label] = { precision, recall, f1, support };
  });
  return scores;
}
