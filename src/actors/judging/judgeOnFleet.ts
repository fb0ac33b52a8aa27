import type { CaseLineOutcome } from '../../domain/judge/cases.js';
import type { EvaluationRunRecord } from '../../ports/store/judgeStore.js';
import { EvaluationRunCancelledError } from './evaluationRunErrors.js';
import {
  cancelEvaluationRun,
  followEvaluationRun,
  type SubmitEvaluationOptions,
  type SubmittedEvaluation,
  submitEvaluationRun,
} from './evaluationRuns.js';

/** What `judgeOnFleet` needs besides the cases: `submitEvaluationRun`'s options and how to end. */
export interface JudgeOnFleetOptions extends SubmitEvaluationOptions {
  /** Follow the run until every worker's verdicts are in; without it, end once the cases are queued. */
  readonly wait: boolean;
  /** Aborting cancels the run for the whole fleet. */
  readonly signal: AbortSignal;
  /** Once every case is queued, before any wait. */
  readonly onSubmitted?: (submitted: SubmittedEvaluation) => void;
  /** While following: the verdicts in so far, of all workers. */
  readonly onProgress?: (done: number, total: number | null) => void;
  /** How often the store is read while following, besides the workers' hints; default `followEvaluationRun`'s. */
  readonly pollMs?: number;
}

/** A judged (or, without `wait`, queued) evaluation run. */
export interface FleetEvaluation extends SubmittedEvaluation {
  /** The run once ended (succeeded or failed), with `wait`; `null` without. */
  readonly ended: EvaluationRunRecord | null;
}

/**
 * Judge cases on the fleet (`arena judge --nats`): record an evaluation run,
 * queue its cases for the workers and, with `wait`, follow it to its end. An
 * aborted `signal`, before the end, cancels the run for every worker (its
 * queued cases dropped, its judgements in flight cancelled) and rejects.
 *
 * @throws EvaluationRunCancelledError when `signal` aborted first.
 * @example
 * ```ts
 * const { ended } = await judgeOnFleet(lines, { store, queue, run: newRun, wait: true, signal });
 * ended?.status; // 'succeeded'
 * ```
 */
export async function judgeOnFleet(
  lines: AsyncIterable<CaseLineOutcome>,
  options: JudgeOnFleetOptions,
): Promise<FleetEvaluation> {
  const { store, queue, signal } = options;
  const submitted = await submitEvaluationRun(lines, options);
  options.onSubmitted?.(submitted);
  const { evaluationRunId } = submitted.run;
  const cancel = async (): Promise<never> => {
    await cancelEvaluationRun(store, evaluationRunId, queue);
    throw new EvaluationRunCancelledError(evaluationRunId);
  };
  if (signal.aborted) return cancel();
  if (!options.wait) return { ...submitted, ended: null };
  const ended = await followEvaluationRun(store, evaluationRunId, {
    signal,
    queue,
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  // still running: the signal ended the wait
  if (ended.status === 'running') return cancel();
  return { ...submitted, ended };
}
