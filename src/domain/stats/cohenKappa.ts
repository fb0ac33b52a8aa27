import { type ConfusionMatrix, confusionMatrix } from './confusionMatrix.js';

/**
 * Cohen's kappa (Cohen 1960) of a square table of counts, rows one rater and
 * columns the other: κ = (p_o − p_e) / (1 − p_e), with p_o the share on the
 * diagonal and p_e = Σ row_i · column_i / n². 1 is perfect agreement, 0 what
 * chance gives, below 0 worse than chance. `null` when it is 0 / 0: no items,
 * or both raters used one and the same category for everything.
 *
 * @example
 * ```ts
 * kappaOfMatrix([[2, 1], [1, 4]]); // 0.4666666666666667
 * kappaOfMatrix([[5, 0], [0, 0]]); // null
 * ```
 */
export function kappaOfMatrix(matrix: readonly (readonly number[])[]): number | null {
  const size = matrix.length;
  const rowTotals = new Array<number>(size).fill(0);
  const columnTotals = new Array<number>(size).fill(0);
  let total = 0;
  let diagonal = 0;
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      const count = matrix[row]![column]!;
      rowTotals[row]! += count;
      columnTotals[column]! += count;
      total += count;
      if (row === column) diagonal += count;
    }
  }
  if (total === 0) return null;
  let chance = 0;
  for (let label = 0; label < size; label++) {
    chance += (rowTotals[label]! / total) * (columnTotals[label]! / total);
  }
  if (chance >= 1) return null;
  return (diagonal / total - chance) / (1 - chance);
}

/**
 * Cohen's kappa (Cohen 1960) of two raters' labels of the same items, as
 * scikit-learn's `cohen_kappa_score`.
 *
 * @example
 * ```ts
 * cohenKappa(['a', 'a', 'b', 'b'], ['a', 'b', 'b', 'b']); // 0.5
 * cohenKappa(['x', 'x'], ['x', 'x']); // null: one category, kappa is 0 / 0
 * ```
 */
export function cohenKappa(first: readonly string[], second: readonly string[]): number | null {
  return kappaOfMatrix(confusionMatrix(first, second).matrix);
}

/** Cohen's kappa of a {@link ConfusionMatrix}. */
export function kappaOfConfusion(confusion: ConfusionMatrix): number | null {
  return kappaOfMatrix(confusion.matrix);
}
