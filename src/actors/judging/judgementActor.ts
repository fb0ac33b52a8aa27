import type { Actor, AnyActorLogic, EventFromLogic, SnapshotFrom } from 'xstate';
import { checkJudgeSubject, type JudgeContext } from '../../domain/judge/context.js';
import { JudgeCancelledError } from '../../domain/judge/errors.js';

/**
 * The `evaluate` of a judge or a panel: it runs one judgement's actor to its
 * end as a promise. A subject `checkJudgeSubject` refuses rejects with its
 * error, an already aborted `signal` rejects with `JudgeCancelledError`
 * before the actor is made; aborting it later sends the actor `cancel`; once
 * the actor is done, `finish` reads the final snapshot into the result (or
 * throws why there is none); an actor error rejects.
 *
 * @example
 * ```ts
 * const evaluate = judgementEvaluator(
 *   (context) => createActor(judgeMachine, { input: { subject: context, … } }),
 *   (snapshot, context) => {
 *     if (!snapshot.output) throw new JudgeCancelledError(context.caseId);
 *     return snapshot.output;
 *   },
 * );
 * const result = await evaluate(subject, { signal });
 * ```
 */
export function judgementEvaluator<TLogic extends AnyActorLogic, TResult>(
  makeActor: (context: JudgeContext) => Actor<TLogic>,
  finish: (snapshot: SnapshotFrom<TLogic>, context: JudgeContext) => TResult,
): (subject: JudgeContext, options?: { signal?: AbortSignal }) => Promise<TResult> {
  return (subject, options = {}) => settleJudgement(subject, options.signal, makeActor, finish);
}

function settleJudgement<TLogic extends AnyActorLogic, TResult>(
  subject: unknown,
  signal: AbortSignal | undefined,
  makeActor: (context: JudgeContext) => Actor<TLogic>,
  finish: (snapshot: SnapshotFrom<TLogic>, context: JudgeContext) => TResult,
): Promise<TResult> {
  let context: JudgeContext;
  try {
    context = checkJudgeSubject(subject);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise<TResult>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new JudgeCancelledError(context.caseId));
      return;
    }
    const actor = makeActor(context);
    // Both judgement machines (a judge's, a panel's) take `cancel` at any time.
    const cancel = (): void => actor.send({ type: 'cancel' } as EventFromLogic<TLogic>);
    const settle = (): void => signal?.removeEventListener('abort', cancel);
    actor.subscribe({
      complete: () => {
        settle();
        try {
          resolve(finish(actor.getSnapshot(), context));
        } catch (error) {
          reject(error);
        }
      },
      error: (error) => {
        settle();
        reject(error);
      },
    });
    signal?.addEventListener('abort', cancel, { once: true });
    actor.start();
  });
}
