import type { NatsConnection } from '@nats-io/transport-node';
import { checkControlMessage } from '../queue/judgeControlMessages.js';
import type { StatusHintBus } from '../queue/statusHints.js';

/** A run id or a pause key as one subject token: they may hold `.`, which NATS reads as a separator. */
export const subjectToken = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

/**
 * Status hints on plain NATS subjects, `<subjectPrefix>.<id as hex>`, with
 * the body `{ <field>: id }`: what the evaluation-run and run queues share.
 * A message that is malformed or names another run than its subject is
 * dropped (`dropped` says why); a role that may not subscribe is called back
 * with an error and hears nothing, so its follower keeps its slow poll.
 *
 * @example
 * ```ts
 * const hints = natsStatusHints(nc, { subjectPrefix: 'arena.runs.status', field: 'runId' });
 * const stop = hints.onStatus(runId, () => wake()); // then read the run from the store
 * hints.announceStatus(runId); // publishes {"runId":…} on arena.runs.status.<hex of runId>
 * ```
 */
export function natsStatusHints(
  nc: NatsConnection,
  options: {
    readonly subjectPrefix: string;
    readonly field: string;
    readonly dropped?: (subject: string, reason: string) => void;
  },
): Required<StatusHintBus> {
  const { subjectPrefix, field } = options;
  const message = { [field]: 'id' } as const;
  const subjectOf = (id: string): string => `${subjectPrefix}.${subjectToken(id)}`;
  return {
    announceStatus(id) {
      // a hint only: whoever hears it reads the run from the store
      nc.publish(subjectOf(id), JSON.stringify({ [field]: id }));
    },
    onStatus(id, listener) {
      const subscription = nc.subscribe(subjectOf(id), {
        callback: (error, received) => {
          if (error !== null) return;
          const checked = checkControlMessage(message, received.data);
          if (!checked.ok) options.dropped?.(received.subject, checked.reason);
          else if (checked.value[field] !== id)
            options.dropped?.(received.subject, `${field}: not the run its subject names`);
          else listener();
        },
      });
      return () => subscription.unsubscribe();
    },
  };
}
