import {
  type CalibrationFigures,
  type PickCells,
  pickCells,
} from '../../domain/judge/calibration.js';

/** The dangerous cells: a status judge's false passes and fails, or a pairwise judge's false and missed picks. */
export type CalibrationCells =
  | ({ readonly mode: 'single' } & Pick<
      CalibrationFigures,
      'falsePasses' | 'falseFails' | 'falsePassRate'
    >)
  | ({ readonly mode: 'pairwise' } & PickCells);

/** A calibration's figures with the dangerous cells of its mode. */
export type CalibrationBody = Omit<
  CalibrationFigures,
  'falsePasses' | 'falseFails' | 'falsePassRate'
> &
  CalibrationCells;

/** One judge's row of a calibration: the panel's, or one member's. */
export type CalibrationRow = CalibrationBody & {
  /** `<judge name>@<12 hex>`. */
  readonly judge: string;
  readonly fingerprint: string;
};

/** The calibration summary `arena judge calibrate` prints and `--json` writes. */
export type CalibrationSummary = CalibrationRow & {
  /** Cases of the cases file without a label. */
  readonly unlabelled: number;
  /** Labelled cases that got no verdict. */
  readonly unjudged: number;
  /** Cases whose annotators tied: left out. */
  readonly annotatorTies: readonly string[];
  readonly annotators: readonly string[];
  /** Fleiss' kappa among the annotators: the ceiling a judge can reach; `null` with fewer than two. */
  readonly annotatorKappa: number | null;
  readonly labelsSha256: string;
  /** For a panel: one row per member. */
  readonly members: readonly CalibrationRow[];
};

/**
 * A calibration's figures with the cells of its mode: false passes and fails
 * of a status judge, false and missed picks of a pairwise one.
 *
 * @example
 * ```ts
 * calibrationCells(figures, 'pairwise');
 * // { mode: 'pairwise', falsePicks: ['arith'], missedPicks: [], falsePickRate: 0.5, n: 4, … }
 * ```
 */
export function calibrationCells(
  figures: CalibrationFigures,
  mode: 'single' | 'pairwise',
): CalibrationBody {
  const { falsePasses, falseFails, falsePassRate, ...rest } = figures;
  return mode === 'pairwise'
    ? { mode, ...rest, ...pickCells(figures) }
    : { mode, ...rest, falsePasses, falseFails, falsePassRate };
}

const figure = (value: number | null): string =>
  value === null ? 'n/a' : String(Number(value.toFixed(4)));

/**
 * The band a kappa falls in, as users act on it: below 0.4 do not trust the
 * judge alone, 0.4-0.7 use it with a person's review, 0.7 and up let it gate.
 *
 * @example
 * ```ts
 * kappaBand(0.74); // 'substantial (0.7 and up)'
 * ```
 */
export function kappaBand(kappa: number | null): string {
  if (kappa === null) return 'undefined';
  if (kappa < 0.4) return 'weak (below 0.4)';
  if (kappa < 0.7) return 'moderate (0.4-0.7)';
  return 'substantial (0.7 and up)';
}

/** `kappa 0.71 [0.62, 0.79]`. */
export function kappaText(
  kappa: number | null,
  interval: readonly [number, number] | null,
): string {
  const ci = interval === null ? '' : ` [${figure(interval[0])}, ${figure(interval[1])}]`;
  return `kappa ${figure(kappa)}${ci}`;
}

const ids = (list: readonly string[]): string =>
  list.length === 0
    ? 'none'
    : list.length <= 10
      ? list.join(', ')
      : `${list.slice(0, 10).join(', ')} and ${list.length - 10} more`;

/**
 * The calibration as a person reads it: the counts, agreement and kappa with
 * its band, the annotators' ceiling, the confusion matrix, per-status scores,
 * the dangerous cells, the score correlations and a panel's member rows.
 *
 * @example
 * ```ts
 * formatCalibration(summary).split('\n')[0];
 * // 'calibrated strict@9f0e11c2a4b7 on 6 labelled cases: 1 error, 0 unlabelled, 0 unjudged, 1 annotator tie'
 * ```
 */
export function formatCalibration(summary: CalibrationSummary): string {
  const { confusion } = summary;
  const width = Math.max(8, ...confusion.labels.map((label) => label.length + 1));
  const pad = (text: string) => text.padStart(width);
  const lines = [
    `calibrated ${summary.judge}${summary.mode === 'pairwise' ? ' (pairwise: the winner of each case)' : ''} on ${summary.n} labelled cases: ${summary.errors.length} error${summary.errors.length === 1 ? '' : 's'}, ${summary.unlabelled} unlabelled, ${summary.unjudged} unjudged, ${summary.annotatorTies.length} annotator tie${summary.annotatorTies.length === 1 ? '' : 's'}`,
    `agreement ${figure(summary.agreement)}, ${kappaText(summary.kappa, summary.kappaCi)}: ${kappaBand(summary.kappa)}`,
    ...(summary.annotatorKappa === null
      ? []
      : [
          `annotators (${summary.annotators.join(', ')}) agree with kappa ${figure(summary.annotatorKappa)}: the ceiling a judge can reach`,
        ]),
    'confusion (rows: judge, columns: people):',
    `${' '.repeat(width)}${confusion.labels.map(pad).join('')}`,
    ...confusion.labels.map(
      (label, row) =>
        `${pad(label)}${confusion.matrix[row]!.map((count) => pad(String(count))).join('')}`,
    ),
    ...confusion.labels.map((label) => {
      const scores = summary.perStatus[label]!;
      return `${label}: precision ${figure(scores.precision)}, recall ${figure(scores.recall)}, f1 ${figure(scores.f1)}, support ${scores.support}`;
    }),
    ...dangerousLines(summary),
    ...(summary.errors.length > 0 ? [`errors (not counted): ${ids(summary.errors)}`] : []),
    ...(summary.scored > 0
      ? [
          `scores of ${summary.scored} cases: spearman ${figure(summary.spearman)}, pearson ${figure(summary.pearson)}, mean absolute difference ${figure(summary.meanAbsoluteDifference)}`,
        ]
      : []),
    ...summary.members.map(
      (member) =>
        `member ${member.judge}: n ${member.n}, agreement ${figure(member.agreement)}, ${kappaText(member.kappa, member.kappaCi)}, ${member.mode === 'single' ? `false passes ${member.falsePasses.length}` : `false picks ${member.falsePicks.length}`}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** The dangerous cells' lines, each count with its case ids. */
function dangerousLines(summary: CalibrationCells): string[] {
  const line = (what: string, list: readonly string[]) =>
    `${what}: ${list.length}${list.length > 0 ? `: ${ids(list)}` : ''}`;
  if (summary.mode === 'pairwise') {
    return [
      line(
        `false picks (judge named a winner people did not; rate ${figure(summary.falsePickRate)})`,
        summary.falsePicks,
      ),
      line('missed picks (judge said tie, people named a winner)', summary.missedPicks),
    ];
  }
  return [
    line('false passes (judge passed, people failed)', summary.falsePasses),
    line('false fails (judge failed, people passed)', summary.falseFails),
  ];
}
