import { isJudgePanel } from '../../actors/judging/judgePanel.js';
import type { Judge } from '../../actors/judging/judges.js';
import type { JudgeConfig } from '../../config/judgeConfig.js';
import type { RatingAgreement } from '../../domain/judge/agreement.js';
import { isPanelResult, panelAccumulator } from '../../domain/judge/panel.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import type { JudgeSummary } from '../../domain/judge/summary.js';
import { type TrialJudgeResult, trialStabilityAccumulator } from '../../domain/judge/trials.js';
import { formatEstimate } from '../../domain/stats/interval.js';
import { CliError, ExitCode } from '../errors.js';

/** What `arena judge` adds for a panel or `--trials`: lines before the gates, JSON fields, failed gates. */
export interface AgreementReport {
  /** What was judged, when not simply `N cases`: `12 judgements (4 cases × 3 trials)`. */
  readonly judged?: string;
  /** The first line of the summary, when it is not a count of statuses (a pairwise judge's). */
  readonly headline?: string;
  readonly lines: readonly string[];
  readonly json: Readonly<Record<string, unknown>>;
  readonly failedGates: readonly string[];
}

/**
 * Read `--trials`: a positive integer (default 1).
 *
 * @throws CliError (exit 2) naming the option.
 * @example
 * ```ts
 * parseTrials('3'); // 3
 * parseTrials('0'); // throws CliError("--trials must be a positive integer, got '0'")
 * ```
 */
export function parseTrials(value: string | undefined): number {
  const trials = Number(value ?? '1');
  if (!Number.isInteger(trials) || trials < 1 || trials > 1000) {
    throw new CliError(
      `--trials must be a positive integer of at most 1000, got '${value}'`,
      ExitCode.badInput,
    );
  }
  return trials;
}

/**
 * Refuse, before any judging, a `gates.min_agreement` with nothing to measure:
 * agreement needs a panel or at least two trials.
 *
 * @throws CliError (exit 2).
 * @example
 * ```ts
 * checkAgreementGate(config, singleJudge, 1);
 * // throws CliError('gates.min_agreement needs a panel judge or --trials 2 or more: ...')
 * ```
 */
export function checkAgreementGate(config: JudgeConfig, judge: Judge, trials: number): void {
  if (config.gates.min_agreement === undefined || isJudgePanel(judge) || trials > 1) return;
  throw new CliError(
    `gates.min_agreement needs a panel judge or --trials 2 or more: judge ${judge.settings.name} alone has no agreement to measure`,
    ExitCode.badInput,
  );
}

/**
 * The panel and trial part of a judge run's report: each member's counts and
 * pass rate and the members' agreement (Fleiss' kappa over the judgements)
 * for a panel; the stability of the verdicts (the same kappa, trials as
 * raters) for `--trials`; and the `min_agreement` gate on each.
 *
 * @example
 * ```ts
 * agreementReport(panelResults, { trials: 1, minAgreement: 0.4 }).lines;
 * // ['member strict: passed 2, failed 1, skipped 1, error 0; pass rate 0.6667 (95% CI 0.2077-0.9385, n 3)', ...,
 * //  "agreement of the members: Fleiss' kappa 0.4545 over 4 judgements (categories failed, passed, skipped)"]
 * ```
 */
export function agreementReport(
  results: readonly JudgeResult[],
  options: { trials: number; minAgreement?: number | undefined },
): AgreementReport {
  const report = agreementReporter(options);
  for (const result of results) report.add(result);
  return report.report();
}

/**
 * `agreementReport` folded one result at a time: what it keeps is bounded by
 * the panel's members and the cases whose trials are still being judged,
 * never by the run.
 *
 * @example
 * ```ts
 * const agreement = agreementReporter({ trials: 3, minAgreement: 0.6 });
 * for await (const result of results) agreement.add(result);
 * agreement.report().lines; // ['stability over 3 trials: Fleiss' kappa 1 over 4 cases ...']
 * ```
 */
export function agreementReporter(options: { trials: number; minAgreement?: number | undefined }): {
  add(result: JudgeResult): void;
  report(): AgreementReport;
} {
  const panel = panelAccumulator();
  let panelResults = 0;
  let judgements = 0;
  const stability = options.trials > 1 ? trialStabilityAccumulator(options.trials) : null;
  return {
    add(result) {
      judgements++;
      if (isPanelResult(result)) {
        panelResults++;
        panel.add(result);
      }
      stability?.add(result as TrialJudgeResult);
    },
    report() {
      const lines: string[] = [];
      const json: Record<string, unknown> = {};
      const failedGates: string[] = [];
      const gate = (what: string, agreement: RatingAgreement): void => {
        if (options.minAgreement === undefined) return;
        if (agreement.kappa === null) {
          failedGates.push(
            `${what} is n/a (${whyNoKappa(agreement)}), so min_agreement ${options.minAgreement} cannot hold`,
          );
        } else if (agreement.kappa < options.minAgreement) {
          failedGates.push(
            `${what} ${ratio(agreement.kappa)} is below min_agreement ${options.minAgreement}`,
          );
        }
      };
      if (panelResults > 0) {
        const members = panel.memberSummaries();
        for (const [name, summary] of members) lines.push(`member ${name}: ${memberLine(summary)}`);
        const agreement = panel.agreement();
        lines.push(`agreement of the members: ${kappaLine(agreement, 'judgements')}`);
        json.panel = { members: Object.fromEntries(members), agreement };
        gate('agreement of the members', agreement);
      }
      if (stability !== null) {
        const stable = stability.stability();
        lines.push(
          `stability over ${stable.trials} trials: ${kappaLine(stable, 'cases')}; the same verdict in every trial: ${stable.sameVerdict} of ${stable.cases} cases`,
        );
        json.trials = stable;
        gate('stability over trials', stable);
        const judged = `${judgements} judgements (${stable.cases} cases × ${stable.trials} trials)`;
        return { judged, lines, json, failedGates };
      }
      return { lines, json, failedGates };
    },
  };
}

function memberLine(summary: JudgeSummary): string {
  const statuses = (['passed', 'failed', 'skipped', 'error'] as const)
    .map((status) => `${status} ${summary.byStatus[status]}`)
    .join(', ');
  return `${statuses}; pass rate ${formatEstimate(summary.passRate, summary.passRateCi, summary.n)}`;
}

function kappaLine(agreement: RatingAgreement, subjects: string): string {
  const leftOut =
    agreement.leftOut > 0 ? `; ${agreement.leftOut} left out: an error gives no verdict` : '';
  const kappa =
    agreement.kappa === null ? `n/a (${whyNoKappa(agreement)})` : ratio(agreement.kappa);
  const categories =
    agreement.categories.length > 0 ? ` (categories ${agreement.categories.join(', ')})` : '';
  return `Fleiss' kappa ${kappa} over ${agreement.subjects} ${subjects}${categories}${leftOut}`;
}

function whyNoKappa(agreement: RatingAgreement): string {
  return agreement.subjects === 0
    ? 'nothing rated by every rater'
    : 'all verdicts in one category, where kappa is 0/0';
}

function ratio(value: number | null): string {
  return value === null ? 'n/a' : String(Number(value.toFixed(4)));
}
