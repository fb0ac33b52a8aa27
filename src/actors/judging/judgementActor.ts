import type { Actor, AnyActorLogic, EventFromLogic, SnapshotFrom } from 'xstate';
import { JudgeCancelledError } from '../../domain/judge/errors.js';

/**
 * Run one judgement's actor to its end as a promise, as a judge and a panel
 * both do: an already aborted `signal` rejects with `JudgeCancelledError`
 * before the actor is made; aborting it later sends the actor `cancel`; once
 * the actor is done, `finish` reads the final snapshot into the result (or
 * throws why there is none); an actor error rejects.
 *
 * @example
 * ```ts
 * const result = await settleJudgement(
 *   () => createActor(judgeMachine, { input }),
 *   signal,
 *   context.caseId,
 *   (snapshot) => {
 *     if (!snapshot.output) throw new JudgeCancelledError(context.caseId);
 *     return snapshot.output;
 *   },
 * );
 * ```
 */
export function settleJudgement<TLogic extends AnyActorLogic, TResult>(
  makeActor: () => Actor<TLogic>,
  signal: AbortSignal | undefined,
  caseId: string,
  finish: (snapshot: SnapshotFrom<TLogic>) => TResult,
): Promise<TResult> {
  return new Promise<TResult>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new JudgeCancelledError(caseId));
      return;
    }
    const actor = makeActor();
    // Both judgement machines (a judge's, a panel's) take `cancel` at any time.
    const cancel = (): void => actor.send({ type: 'cancel' } as EventFromLogic<TLogic>);
    const settle = (): void => signal?.removeEventListener('abort', cancel);
    actor.subscribe({
      complete: () => {
        settle();
        try {
          resolve(finish(actor.getSnapshot()));
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
