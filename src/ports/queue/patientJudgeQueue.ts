import { type PatienceOptions, withPatience } from '../runtime/serverFailure.js';
import type { JudgeQueue } from './judgeQueue.js';

/**
 * A judge queue whose `submit` outlasts a server restart: a publish that
 * meets a server fault (a timeout while the server is away, no responders
 * while JetStream starts again) is made again with back-off until the server
 * is back, for the patience, then fails with `ServerUnavailableError`; any
 * other error (a refused permission, a message too large) passes at once.
 * Repeating a publish is harmless: its message id (`<run>:<case>`, or a
 * digest of a message's cases) makes a second copy within the duplicate
 * window a duplicate receipt, and a duplicate receipt is a case queued.
 *
 * @example
 * ```ts
 * const queue = patientJudgeQueue(await openJudgeQueue(nats), { what: 'the judge queue' });
 * await queue.submit({ evaluationRunId, caseKey }); // through a NATS restart: { duplicate: true } or false
 * ```
 */
export function patientJudgeQueue(queue: JudgeQueue, patience: PatienceOptions): JudgeQueue {
  return {
    ...queue,
    submit: (job) => withPatience(() => queue.submit(job), patience),
    ...(queue.submitCases !== undefined
      ? {
          submitCases: (jobs) =>
            withPatience(
              () => queue.submitCases?.(jobs) ?? Promise.resolve({ duplicates: 0 }),
              patience,
            ),
        }
      : {}),
  };
}
