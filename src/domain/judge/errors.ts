import { ArenaError, arenaErrorClass } from '../shared/errors.js';

/**
 * A judge configuration violates identity, safety or resource policy (empty
 * names, a non-positive timeout, an unsafe tool, a clock without a zone...).
 *
 * @example
 * ```ts
 * new JudgeConfigurationError('timeoutMs must be positive, got 0').code; // 'JUDGE_CONFIGURATION'
 * ```
 */
export class JudgeConfigurationError extends arenaErrorClass('JUDGE_CONFIGURATION') {}

/**
 * A subject handed to a judge is not one: a missing or empty id, no
 * candidate output, an observation that is not an object, a key of another
 * spelling. The message names every field and what was expected.
 *
 * @example
 * ```ts
 * new JudgeSubjectError('judge subject "c1": candidateOutput is missing').code; // 'JUDGE_SUBJECT'
 * ```
 */
export class JudgeSubjectError extends arenaErrorClass('JUDGE_SUBJECT') {}

/**
 * A judge returned content that does not match the strict result schema, or
 * judge input that cannot be written as finite JSON. The message never holds
 * the raw model output.
 *
 * @example
 * ```ts
 * new JudgeResponseError('judge response failed validation').name; // 'JudgeResponseError'
 * ```
 */
export class JudgeResponseError extends arenaErrorClass('JUDGE_RESPONSE') {}

/**
 * One attempt ran past the per-attempt timeout; the call was aborted.
 *
 * @example
 * ```ts
 * new JudgeTimeoutError(1000).message; // 'judge attempt timed out after 1000 ms'
 * ```
 */
export class JudgeTimeoutError extends ArenaError {
  constructor(timeoutMs: number) {
    super('JUDGE_TIMEOUT', `judge attempt timed out after ${timeoutMs} ms`);
  }
}

/**
 * The judgement was cancelled: the call in flight was aborted and there is no
 * result. A cancellation is never turned into a verdict.
 *
 * @example
 * ```ts
 * new JudgeCancelledError('case-1').message; // 'judgement of case case-1 was cancelled'
 * ```
 */
export class JudgeCancelledError extends ArenaError {
  constructor(caseId: string) {
    super('JUDGE_CANCELLED', `judgement of case ${caseId} was cancelled`);
  }
}

/**
 * A majority panel's votes were split evenly between passed and failed: the
 * panel gives an `error` result whose `errorType` is `PanelTieError`.
 *
 * @example
 * ```ts
 * new PanelTieError(1, 1).message; // 'the panel is tied: 1 passed, 1 failed'
 * ```
 */
export class PanelTieError extends ArenaError {
  constructor(passed: number, failed: number) {
    super('PANEL_TIE', `the panel is tied: ${passed} passed, ${failed} failed`);
  }
}

/**
 * Fewer panel members voted than the panel's `min_votes` (members that erred
 * or skipped do not vote): the panel gives an `error` result whose
 * `errorType` is `PanelQuorumError`.
 *
 * @example
 * ```ts
 * new PanelQuorumError(1, 2).message; // 'the panel has 1 vote, fewer than min_votes 2'
 * ```
 */
export class PanelQuorumError extends ArenaError {
  constructor(votes: number, minVotes: number) {
    super(
      'PANEL_QUORUM',
      `the panel has ${votes} vote${votes === 1 ? '' : 's'}, fewer than min_votes ${minVotes}`,
    );
  }
}

/**
 * A table of ratings Fleiss' kappa cannot be computed from: empty, ragged, a
 * subject with fewer than two ratings or a different number of them, or a
 * count that is not a non-negative integer.
 *
 * @example
 * ```ts
 * new AgreementTableError('row 1 has 3 ratings').code; // 'AGREEMENT_TABLE'
 * ```
 */
export class AgreementTableError extends ArenaError {
  constructor(message: string) {
    super('AGREEMENT_TABLE', `fleissKappa: ${message}`);
  }
}
