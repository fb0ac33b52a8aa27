import { bootstrapInterval, DEFAULT_BOOTSTRAP_RESAMPLES } from '../stats/bootstrap.js';
import { kappaOfMatrix } from '../stats/cohenKappa.js';
import type { ConfusionMatrix } from '../stats/confusionMatrix.js';
import { type LabelScores, labelScores } from '../stats/labelScores.js';
import { meanAbsoluteDifference } from '../stats/meanAbsoluteDifference.js';
import { pearson } from '../stats/pearson.js';
import { spearman } from '../stats/spearman.js';

/**
 * One calibrated case: the judge's category (`null`: the judgement ended in
 * error) beside the reference's, with scores when both sides have one.
 * Categories are any strings: statuses, or a pairwise winner.
 */
export interface CalibrationPair {
  readonly caseId: string;
  readonly judge: string | null;
  readonly reference: string;
  readonly judgeScore?: number | null;
  readonly referenceScore?: number | null;
}

/** How judge and people agree on the cases both labelled. */
export interface CalibrationFigures {
  /** Cases with a verdict and a reference. */
  readonly n: number;
  /** Cases whose judgement ended in error: never counted as agreement or disagreement. */
  readonly errors: readonly string[];
  /** Share of the `n` cases with the same category. */
  readonly agreement: number | null;
  /** Cohen's kappa of the judge against the reference. */
  readonly kappa: number | null;
  /** Its 95% case-bootstrap interval, `[lo, hi]`. */
  readonly kappaCi: readonly [number, number] | null;
  /** Rows the judge's category, columns the reference's. */
  readonly confusion: ConfusionMatrix;
  /** Per category, the reference as truth. */
  readonly perStatus: Readonly<Record<string, LabelScores>>;
  /** Judge passed, people failed: the dangerous cell. */
  readonly falsePasses: readonly string[];
  /** Judge failed, people passed. */
  readonly falseFails: readonly string[];
  /** False passes over the cases people failed; `null` when they failed none. */
  readonly falsePassRate: number | null;
  /** Cases where the two disagree, with both categories. */
  readonly disagreements: readonly { caseId: string; judge: string; reference: string }[];
  /** With scores on both sides. */
  readonly scored: number;
  readonly spearman: number | null;
  readonly pearson: number | null;
  readonly meanAbsoluteDifference: number | null;
}

/** Which categories are the pass and the fail of the dangerous cells. */
export interface CalibrationOptions {
  /** The categories in the order the matrix shows them first (others follow, sorted, as they are seen). */
  readonly categories?: readonly string[];
  readonly pass?: string;
  readonly fail?: string;
}

/**
 * The calibration of a judge as a fold over (case, judge category, reference
 * category[, scores]), one pair at a time: it keeps one small number a case
 * (the pair's cell, for the bootstrap), two a scored case (for the rank
 * correlation), and the ids of the cases in error or disagreement; never a text.
 *
 * @example
 * ```ts
 * const calibration = calibrationAccumulator({ categories: ['passed', 'failed', 'skipped'] });
 * calibration.add({ caseId: 'c1', judge: 'passed', reference: 'passed' });
 * calibration.add({ caseId: 'c2', judge: 'passed', reference: 'failed' });
 * calibration.add({ caseId: 'c3', judge: 'failed', reference: 'failed' });
 * calibration.add({ caseId: 'c4', judge: null, reference: 'failed' });
 * const figures = calibration.figures({ seed: 1, bootstrap: 200 });
 * [figures.n, figures.agreement, figures.falsePasses, figures.errors]; // [3, 0.6666666666666666, ['c2'], ['c4']]
 * ```
 */
export function calibrationAccumulator(options: CalibrationOptions = {}): {
  add(pair: CalibrationPair): void;
  figures(bootstrap: { readonly seed: number; readonly bootstrap?: number }): CalibrationFigures;
} {
  const pass = options.pass ?? 'passed';
  const fail = options.fail ?? 'failed';
  const categories = [...(options.categories ?? [])];
  const codeOf = new Map(categories.map((category, index) => [category, index]));
  // cells as judge code and reference code, one a case (codes fit 16 bits each), in a typed
  // array: a fold of 100,000 cases allocates nothing a case beyond the caller's pair
  const cells = new GrowingArray(Uint32Array);
  const judgeScores = new GrowingArray(Float64Array);
  const referenceScores = new GrowingArray(Float64Array);
  const errors: string[] = [];
  // the disagreeing cases: their ids and cells (the categories are read back from the cell)
  const disagreeingIds: string[] = [];
  const disagreeingCells = new GrowingArray(Uint32Array);
  let referenceFails = 0;
  let lastCategory: string | undefined;
  let lastCode = -1;
  const code = (category: string): number => {
    if (category === lastCategory) return lastCode;
    let found = codeOf.get(category);
    if (found === undefined) {
      found = categories.length;
      categories.push(category);
      codeOf.set(category, found);
    }
    lastCategory = category;
    lastCode = found;
    return found;
  };
  return {
    add(pair) {
      if (pair.judge === null) {
        errors.push(pair.caseId);
        return;
      }
      const cell = code(pair.judge) * 65536 + code(pair.reference);
      cells.push(cell);
      if (pair.reference === fail) referenceFails++;
      if (pair.judge !== pair.reference) {
        disagreeingIds.push(pair.caseId);
        disagreeingCells.push(cell);
      }
      const { judgeScore, referenceScore } = pair;
      if (
        typeof judgeScore === 'number' &&
        typeof referenceScore === 'number' &&
        Number.isFinite(judgeScore) &&
        Number.isFinite(referenceScore)
      ) {
        judgeScores.push(judgeScore);
        referenceScores.push(referenceScore);
      }
    },
    figures({ seed, bootstrap = DEFAULT_BOOTSTRAP_RESAMPLES }) {
      // the order shown: the given categories, then the others sorted
      const given = options.categories?.length ?? 0;
      const labels = [...categories.slice(0, given), ...categories.slice(given).sort()];
      const position = categories.map((category) => labels.indexOf(category));
      const size = labels.length;
      const matrixOf = (indices: Iterable<number>): number[][] => {
        const matrix = labels.map(() => new Array<number>(size).fill(0));
        for (const index of indices) {
          const cell = cells.values[index]!;
          matrix[position[Math.floor(cell / 65536)]!]![position[cell % 65536]!]! += 1;
        }
        return matrix;
      };
      const n = cells.length;
      const matrix = matrixOf(cells.view().keys());
      let same = 0;
      for (let i = 0; i < size; i++) same += matrix[i]![i]!;
      const kappa = kappaOfMatrix(matrix);
      let kappaCi: readonly [number, number] | null = null;
      if (n > 0 && kappa !== null) {
        const interval = bootstrapInterval(n, (indices) => kappaOfMatrix(matrixOf(indices)), {
          seed,
          resamples: bootstrap,
        });
        if (interval.lo !== null && interval.hi !== null) kappaCi = [interval.lo, interval.hi];
      }
      const confusion = { labels, matrix };
      const disagreements = disagreeingIds.map((caseId, index) => {
        const cell = disagreeingCells.values[index]!;
        return {
          caseId,
          judge: categories[Math.floor(cell / 65536)]!,
          reference: categories[cell % 65536]!,
        };
      });
      const falsePasses = disagreements
        .filter((each) => each.judge === pass && each.reference === fail)
        .map((each) => each.caseId);
      const falseFails = disagreements
        .filter((each) => each.judge === fail && each.reference === pass)
        .map((each) => each.caseId);
      const judged = Array.from(judgeScores.view());
      const referenced = Array.from(referenceScores.view());
      return {
        n,
        errors,
        agreement: n === 0 ? null : same / n,
        kappa,
        kappaCi,
        confusion,
        perStatus: labelScores(confusion),
        falsePasses,
        falseFails,
        falsePassRate: referenceFails === 0 ? null : falsePasses.length / referenceFails,
        disagreements,
        scored: judgeScores.length,
        spearman: spearman(judged, referenced),
        pearson: pearson(judged, referenced),
        meanAbsoluteDifference: meanAbsoluteDifference(judged, referenced),
      };
    },
  };
}

/** A typed array that grows by doubling: numbers a case without an object a case. */
class GrowingArray<T extends Uint32Array | Float64Array> {
  length = 0;
  values: T;

  constructor(private readonly make: new (length: number) => T) {
    this.values = new make(1024);
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new this.make(this.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  /** The values pushed, without a copy. */
  view(): T {
    return this.values.subarray(0, this.length) as T;
  }
}

/** A pairwise judge's dangerous cells, in place of a status judge's false passes and fails. */
export interface PickCells {
  /** The judge named a winner people did not (they named the other system, or a tie). */
  readonly falsePicks: readonly string[];
  /** The judge said tie where people named a winner. */
  readonly missedPicks: readonly string[];
  /** False picks over the cases where the judge named a winner; `null` when it named none. */
  readonly falsePickRate: number | null;
}

/**
 * The dangerous cells of a pairwise calibration, whose categories are the
 * systems and `tie`: a winner the judge names that people did not (a gate on
 * its win rate counts it), and a winner people named that the judge missed.
 *
 * @example
 * ```ts
 * const calibration = calibrationAccumulator();
 * calibration.add({ caseId: 'a', judge: 'gpt', reference: 'claude' });
 * calibration.add({ caseId: 'b', judge: 'tie', reference: 'claude' });
 * calibration.add({ caseId: 'c', judge: 'claude', reference: 'claude' });
 * pickCells(calibration.figures({ seed: 0 }));
 * // { falsePicks: ['a'], missedPicks: ['b'], falsePickRate: 0.5 }
 * ```
 */
export function pickCells(figures: CalibrationFigures, tie = 'tie'): PickCells {
  const { labels, matrix } = figures.confusion;
  let picks = 0;
  labels.forEach((label, row) => {
    if (label !== tie) for (const count of matrix[row]!) picks += count;
  });
  const falsePicks = figures.disagreements.filter((each) => each.judge !== tie);
  return {
    falsePicks: falsePicks.map((each) => each.caseId),
    missedPicks: figures.disagreements
      .filter((each) => each.judge === tie)
      .map((each) => each.caseId),
    falsePickRate: picks === 0 ? null : falsePicks.length / picks,
  };
}
