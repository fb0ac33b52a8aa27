import { ArenaError } from '../../domain/shared/errors.js';

/**
 * An evaluation run was cancelled (Ctrl-C, `cancelEvaluationRun`): no
 * judgement cancelled with it became a verdict.
 *
 * @example
 * ```ts
 * new EvaluationRunCancelledError('strict-20261201T110000-3fa2').message;
 * // 'evaluation run strict-20261201T110000-3fa2 cancelled; no cancelled case became a verdict'
 * ```
 */
export class EvaluationRunCancelledError extends ArenaError {
  readonly evaluationRunId: string;
  constructor(evaluationRunId: string) {
    super(
      'EVALUATION_RUN_CANCELLED',
      `evaluation run ${evaluationRunId} cancelled; no cancelled case became a verdict`,
    );
    this.evaluationRunId = evaluationRunId;
  }
}

/**
 * An evaluation run ended failed (a case that cannot be judged, cases that
 * could not be queued): its verdicts are not a result.
 *
 * @example
 * ```ts
 * new EvaluationRunFailedError('r1', null).message; // 'evaluation run r1 failed: no reason recorded'
 * ```
 */
export class EvaluationRunFailedError extends ArenaError {
  readonly evaluationRunId: string;
  constructor(evaluationRunId: string, reason: string | null) {
    super(
      'EVALUATION_RUN_FAILED',
      `evaluation run ${evaluationRunId} failed: ${reason ?? 'no reason recorded'}`,
    );
    this.evaluationRunId = evaluationRunId;
  }
}
