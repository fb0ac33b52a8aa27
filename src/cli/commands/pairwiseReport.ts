import type { JudgeConfig } from '../../config/judgeConfig.js';
import {
  type PairTally,
  type PairwiseSummary,
  pairwiseAccumulator,
} from '../../domain/judge/pairwiseSummary.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import { CliError, ExitCode } from '../errors.js';
import { type AgreementReport, agreementReporter } from './judgePanelReport.js';

/**
 * The pairwise part of `arena judge`'s report, folded as results come: the
 * judge's position consistency and first-slot rate, each pair's wins,
 * losses, ties, inconsistent pairs and win rate with its interval, the
 * Bradley-Terry ranking with more than two systems, and the `min_win_rate` gate.
 *
 * @example
 * ```ts
 * const reporter = pairwiseReporter(config, 'prefer');
 * for (const result of results) reporter.add(result);
 * reporter.report().lines[0];
 * // 'pairwise: 4 cases, 12 pairs judged in both orders, 0 pairs in error'
 * ```
 */
export function pairwiseReporter(
  config: JudgeConfig,
  judgeName: string,
): { add(result: JudgeResult): void; report(): AgreementReport } {
  const fold = pairwiseAccumulator({ seed: config.judges[judgeName]?.seed ?? 0 });
  let judgements = 0;
  let errors = 0;
  return {
    add(result) {
      judgements++;
      if (result.status === 'error') errors++;
      fold.add(result);
    },
    report() {
      const summary = fold.summary();
      const gate = config.gates.min_win_rate;
      return {
        headline: `judged ${summary.cases} cases in ${judgements} judgements with ${judgeName} (pairwise): answered ${judgements - errors}, error ${errors}`,
        lines: pairwiseLines(summary),
        json: { pairwise: summary },
        failedGates: gate === undefined ? [] : minWinRateFailure(summary, gate),
      };
    },
  };
}

/**
 * The lines a person reads: the pairs, the judge's position figures, one line a pair of systems, the ranking.
 *
 * @example
 * ```ts
 * pairwiseLines(summary)[1];
 * // 'position consistency 0.75 (9 of 12 pairs), first-slot rate 0.6 (12 of 20 non-tie answers chose first; 0.5 is unbiased)'
 * ```
 */
export function pairwiseLines(summary: PairwiseSummary): string[] {
  const { first, second } = summary.answers;
  const consistent =
    summary.pairs - summary.byPair.reduce((sum, pair) => sum + pair.inconsistent, 0);
  const lines = [
    `pairwise: ${summary.cases} cases, ${summary.pairs} pairs judged in both orders, ${summary.errorPairs} pairs in error`,
    `position consistency ${ratio(summary.positionConsistency)} (${consistent} of ${summary.pairs} pairs), first-slot rate ${ratio(summary.firstSlotRate)} (${first} of ${first + second} non-tie answers chose first; 0.5 is unbiased)`,
    ...summary.byPair.map(pairLine),
  ];
  if (summary.ratings !== null) {
    const ranked = summary.ratings
      .map(
        (entry, place) =>
          `${place + 1}. ${entry.system} ${entry.rating.toFixed(1)}${entry.ratingCi ? ` [${entry.ratingCi[0].toFixed(1)}, ${entry.ratingCi[1].toFixed(1)}]` : ''}`,
      )
      .join('; ');
    lines.push(
      `ranking (Bradley-Terry, Elo scale, mean 1000${summary.ratingsRegularized ? ', one virtual tie a pair' : ''}): ${ranked}`,
    );
  }
  return lines;
}

function pairLine(pair: PairTally): string {
  const [a, b] = pair.systems;
  const interval = pair.winRateCi
    ? ` [${ratio(pair.winRateCi[0])}, ${ratio(pair.winRateCi[1])}]`
    : '';
  const errors = pair.errors > 0 ? `, ${pair.errors} in error` : '';
  return `${a} vs ${b}: ${a} wins ${pair.wins}, loses ${pair.losses}, ties ${pair.ties}, inconsistent ${pair.inconsistent}${errors}; win rate ${ratio(pair.winRate)}${interval}`;
}

/**
 * `gates.min_win_rate`: passes only when the lower bound of `system`'s win
 * rate over `against` reaches `value`; a pair never judged fails.
 *
 * @example
 * ```ts
 * minWinRateFailure(summary, { system: 'a', against: 'b', value: 0.6 });
 * // ['win rate of a over b 0.625 [0.25, 1]: its lower bound 0.25 is below min_win_rate 0.6']
 * ```
 */
export function minWinRateFailure(
  summary: PairwiseSummary,
  gate: { readonly system: string; readonly against: string; readonly value: number },
): string[] {
  const { system, against, value } = gate;
  const pair = summary.byPair.find(
    (tally) =>
      (tally.systems[0] === system && tally.systems[1] === against) ||
      (tally.systems[0] === against && tally.systems[1] === system),
  );
  if (pair === undefined || pair.winRate === null || pair.winRateCi === null) {
    return [`min_win_rate: no case judged ${system} against ${against} in both orders`];
  }
  const flipped = pair.systems[0] !== system;
  const rate = flipped ? 1 - pair.winRate : pair.winRate;
  const lo = flipped ? 1 - pair.winRateCi[1] : pair.winRateCi[0];
  const hi = flipped ? 1 - pair.winRateCi[0] : pair.winRateCi[1];
  if (lo >= value) return [];
  return [
    `win rate of ${system} over ${against} ${ratio(rate)} [${ratio(lo)}, ${ratio(hi)}]: its lower bound ${ratio(lo)} is below min_win_rate ${value}`,
  ];
}

function ratio(value: number | null): string {
  return value === null ? 'n/a' : String(Number(value.toFixed(4)));
}

/**
 * Refuse, before any judging, what a judge's mode cannot do: `min_win_rate`
 * for a single judge; `--trials`, and the gates on passes and scores
 * (`min_pass_rate`, `min_mean_score`, `max_false_pass_rate`), for a pairwise
 * one: its answers are winners, not passes.
 *
 * @throws CliError (exit 2).
 * @example
 * ```ts
 * checkPairwiseOptions(config, 'single', 1, 'judge.yaml');
 * // throws CliError('judge.yaml: gates.min_win_rate needs a judge with mode: pairwise: ...')
 * ```
 */
export function checkPairwiseOptions(
  config: JudgeConfig,
  mode: 'single' | 'pairwise',
  trials: number,
  configPath: string,
): void {
  if (mode === 'single' && config.gates.min_win_rate !== undefined) {
    throw new CliError(
      `${configPath}: gates.min_win_rate needs a judge with mode: pairwise: a single judge has no win rate`,
      ExitCode.badInput,
    );
  }
  if (mode !== 'pairwise') return;
  if (trials > 1) {
    throw new CliError(
      '--trials repeats single judgements: a pairwise judge already judges each pair twice',
      ExitCode.badInput,
    );
  }
  const gate = (['min_pass_rate', 'min_mean_score', 'max_false_pass_rate'] as const).find(
    (name) => config.gates[name] !== undefined,
  );
  if (gate !== undefined) {
    throw new CliError(
      `${configPath}: gates.${gate} means nothing for a pairwise judge (its answers are winners, not passes or scores): gate on gates.min_win_rate: { system, against, value }${gate === 'max_false_pass_rate' ? ', or on gates.min_calibration_kappa' : ''}`,
      ExitCode.badInput,
    );
  }
}

/**
 * The reporter of a run's extras: pairwise figures for a pairwise judge, else
 * a panel's or the trials' agreement.
 */
export function extrasReporter(
  config: JudgeConfig,
  judgeName: string,
  mode: 'single' | 'pairwise',
  trials: number,
): { add(result: JudgeResult): void; report(): AgreementReport } {
  return mode === 'pairwise'
    ? pairwiseReporter(config, judgeName)
    : agreementReporter({ trials, minAgreement: config.gates.min_agreement });
}
