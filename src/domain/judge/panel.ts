import {
  pairwiseAgreement,
  type RatingAgreement,
  ratingAgreementAccumulator,
} from './agreement.js';
import { JudgeConfigurationError, PanelQuorumError, PanelTieError } from './errors.js';
import type { JudgeResult, JudgeStatus } from './result.js';
import { type JudgeSummary, judgeSummaryAccumulator } from './summary.js';

/** How a panel turns its members' verdicts into one. */
export type PanelRuleName = 'majority' | 'unanimous' | 'mean_score';

/**
 * A panel's rule: `majority` (more passed than failed votes passes, more failed
 * fails, a tie is an error), `unanimous` (passed only when every vote passed),
 * `mean_score` (passed when the voters' mean score reaches `threshold`), and
 * the votes a verdict needs.
 */
export interface PanelRule {
  readonly rule: PanelRuleName;
  /** The fewest votes a verdict needs; with fewer, the panel's result is an error. */
  readonly minVotes: number;
  /** `mean_score` only: the mean score at which the panel passes. */
  readonly threshold: number | null;
}

/** The members' verdicts, counted. Only `votes` decide; errors and skips never do. */
export interface PanelVote {
  /** The members whose verdicts counted: passed or failed (with a score, for `mean_score`). */
  readonly votes: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly errors: number;
}

/** What a panel decided about one case. */
export interface PanelVerdict {
  readonly status: JudgeStatus;
  /** `PanelTieError` or `PanelQuorumError` for an `error` verdict, else `null`. */
  readonly errorType: string | null;
  /** That error's message (`the panel is tied: 1 passed, 1 failed`), else `null`. */
  readonly detail: string | null;
  /** The mean score of the members that voted and gave one; `null` when none did. */
  readonly score: number | null;
  readonly vote: PanelVote;
}

/**
 * Apply a panel's rule to its members' verdicts. A member that erred never
 * votes, nor does one that skipped; a panel whose members mostly skipped
 * (at least `minVotes` of them, with too few votes) skips.
 *
 * @example
 * ```ts
 * const rule = { rule: 'majority', minVotes: 2, threshold: null } as const;
 * panelVerdict(rule, [{ status: 'passed', score: 1 }, { status: 'failed', score: 0 }, { status: 'passed', score: 0.8 }]);
 * // { status: 'passed', errorType: null, detail: null, score: 0.6, vote: { votes: 3, passed: 2, failed: 1, skipped: 0, errors: 0 } }
 * panelVerdict(rule, [{ status: 'passed', score: 1 }, { status: 'failed', score: 0 }]).errorType; // 'PanelTieError'
 * panelVerdict(rule, [{ status: 'passed', score: 1 }, { status: 'error', score: null }]).errorType; // 'PanelQuorumError'
 * ```
 */
export function panelVerdict(
  rule: PanelRule,
  members: readonly Pick<JudgeResult, 'status' | 'score'>[],
): PanelVerdict {
  const count = (status: JudgeStatus) =>
    members.filter((member) => member.status === status).length;
  const voters = members.filter(
    (member) =>
      (member.status === 'passed' || member.status === 'failed') &&
      (rule.rule !== 'mean_score' || member.score !== null),
  );
  const passed = voters.filter((member) => member.status === 'passed').length;
  const failed = voters.length - passed;
  const vote: PanelVote = {
    votes: voters.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    errors: count('error'),
  };
  const scores = voters.flatMap((member) => (member.score === null ? [] : [member.score]));
  const score =
    scores.length > 0 ? scores.reduce((sum, value) => sum + value, 0) / scores.length : null;
  const decided = (status: JudgeStatus, error: Error | null = null): PanelVerdict => ({
    status,
    errorType: error?.name ?? null,
    detail: error?.message ?? null,
    score: status === 'passed' || status === 'failed' ? score : null,
    vote,
  });
  if (voters.length < rule.minVotes) {
    return vote.skipped >= rule.minVotes
      ? decided('skipped')
      : decided('error', new PanelQuorumError(voters.length, rule.minVotes));
  }
  if (rule.rule === 'majority') {
    if (passed === failed) return decided('error', new PanelTieError(passed, failed));
    return decided(passed > failed ? 'passed' : 'failed');
  }
  if (rule.rule === 'unanimous') return decided(failed === 0 ? 'passed' : 'failed');
  return decided(
    (score ?? Number.NEGATIVE_INFINITY) >= (rule.threshold ?? 0) ? 'passed' : 'failed',
  );
}

/**
 * Check a panel rule against its member count: 1 ≤ `minVotes` ≤ members, and
 * a finite `threshold` exactly when the rule is `mean_score`.
 *
 * @throws JudgeConfigurationError naming what is wrong.
 * @example
 * ```ts
 * checkPanelRule({ rule: 'majority', minVotes: 4, threshold: null }, 3);
 * // throws JudgeConfigurationError('minVotes must be between 1 and the 3 members, got 4')
 * ```
 */
export function checkPanelRule(rule: PanelRule, members: number): PanelRule {
  if (typeof rule !== 'object' || rule === null) {
    throw new JudgeConfigurationError(
      `a panel needs a rule ({ rule: 'majority' | 'unanimous' | 'mean_score', minVotes, threshold }), got ${String(rule)}`,
    );
  }
  if (!Number.isInteger(rule.minVotes) || rule.minVotes < 1 || rule.minVotes > members) {
    throw new JudgeConfigurationError(
      `minVotes must be between 1 and the ${members} members, got ${String(rule.minVotes)}`,
    );
  }
  if ((rule.rule === 'mean_score') !== (rule.threshold !== null)) {
    throw new JudgeConfigurationError(
      'a threshold goes with the mean_score rule, and only with it',
    );
  }
  if (rule.threshold !== null && !Number.isFinite(rule.threshold)) {
    throw new JudgeConfigurationError(`threshold must be finite, got ${String(rule.threshold)}`);
  }
  return rule;
}

/**
 * The default `minVotes` of a panel: a majority of its members.
 *
 * @example
 * ```ts
 * defaultMinVotes(3); // 2
 * defaultMinVotes(4); // 3
 * ```
 */
export function defaultMinVotes(members: number): number {
  return Math.floor(members / 2) + 1;
}

/** What a panel's result keeps besides the verdict: the rule, the vote and every member's result. */
export interface PanelRecord {
  readonly rule: PanelRuleName;
  readonly minVotes: number;
  readonly threshold: number | null;
  readonly vote: PanelVote;
  /** Fleiss's P_i of the members' verdicts (errors left out): the share of member pairs that agree. */
  readonly agreement: number | null;
  /** Each member's own result, in the panel's member order (digests of evidence, never text). */
  readonly members: readonly JudgeResult[];
}

/** A panel's judgement of one case: a `JudgeResult` that also keeps its members' results. */
export interface PanelJudgeResult extends JudgeResult {
  readonly panel: PanelRecord;
}

/**
 * Whether a result is a panel's (it has a `panel` record).
 *
 * @example
 * ```ts
 * isPanelResult(panelResult); // true
 * isPanelResult(singleJudgeResult); // false
 * ```
 */
export function isPanelResult(result: JudgeResult): result is PanelJudgeResult {
  const panel = (result as Partial<PanelJudgeResult>).panel;
  return typeof panel === 'object' && panel !== null;
}

/**
 * The panel record of one case: the vote and the members' pairwise agreement.
 *
 * @example
 * ```ts
 * panelRecord(rule, verdict.vote, [passedResult, failedResult]).agreement; // 0
 * ```
 */
export function panelRecord(
  rule: PanelRule,
  vote: PanelVote,
  members: readonly JudgeResult[],
): PanelRecord {
  return {
    rule: rule.rule,
    minVotes: rule.minVotes,
    threshold: rule.threshold,
    vote,
    agreement: pairwiseAgreement(
      members.flatMap((member) => (member.status === 'error' ? [] : [member.status])),
    ),
    members,
  };
}

/**
 * Each member's summary over a batch of panel results, in member order.
 *
 * @example
 * ```ts
 * panelMemberSummaries(results).get('strict')?.passRate; // 0.6667
 * ```
 */
export function panelMemberSummaries(
  results: readonly PanelJudgeResult[],
): ReadonlyMap<string, JudgeSummary> {
  const panel = panelAccumulator();
  for (const result of results) panel.add(result);
  return panel.memberSummaries();
}

/**
 * The members' agreement over a batch of panel results: Fleiss' kappa of their
 * verdicts (passed, failed, skipped), one subject per result; a result in
 * which a member erred is left out.
 *
 * @example
 * ```ts
 * panelAgreement(results); // { kappa: 0.4545, subjects: 4, leftOut: 0, categories: ['failed', 'passed', 'skipped'] }
 * ```
 */
export function panelAgreement(results: readonly PanelJudgeResult[]): RatingAgreement {
  const panel = panelAccumulator();
  for (const result of results) panel.add(result);
  return panel.agreement();
}

/**
 * `panelMemberSummaries` and `panelAgreement` one result at a time, in memory
 * bounded by the members, not the results. The members are the first
 * result's; a later result without one of them is left out of the agreement.
 *
 * @example
 * ```ts
 * const panel = panelAccumulator();
 * for await (const result of results) panel.add(result);
 * panel.agreement().kappa; // 0.4545
 * ```
 */
export function panelAccumulator(): {
  add(result: PanelJudgeResult): void;
  memberSummaries(): ReadonlyMap<string, JudgeSummary>;
  agreement(): RatingAgreement;
} {
  const byMember = new Map<string, ReturnType<typeof judgeSummaryAccumulator>>();
  const ratings = ratingAgreementAccumulator();
  let names: readonly string[] | null = null;
  return {
    add(result) {
      for (const member of result.panel.members) {
        let summary = byMember.get(member.judge);
        if (summary === undefined) {
          summary = judgeSummaryAccumulator();
          byMember.set(member.judge, summary);
        }
        summary.add(member);
      }
      names ??= result.panel.members.map((member) => member.judge);
      ratings.add(
        names.map((name) => {
          const member = result.panel.members.find((candidate) => candidate.judge === name);
          return member === undefined || member.status === 'error' ? null : member.status;
        }),
      );
    },
    memberSummaries() {
      return new Map([...byMember].map(([name, summary]) => [name, summary.summary()]));
    },
    agreement: () => ratings.agreement(),
  };
}
