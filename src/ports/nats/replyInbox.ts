import { createInbox, type Msg, type NatsConnection } from '@nats-io/transport-node';

/**
 * What the caller makes of one reply: taken, or refused with the reason;
 * `final` ends the wait at once (the one answerer of a queue group answered,
 * and it is not trusted: asking again may reach another).
 */
export type ReplyVerdict<T> =
  | { readonly taken: T }
  | { readonly refused: string; readonly final?: boolean };

/** How a request ended: a reply taken, or none (and the replies refused meanwhile). */
export type InboxOutcome<T> =
  | { readonly taken: T; readonly refused: readonly string[] }
  | {
      readonly missing: 'no-responders' | 'timeout' | 'untrusted';
      readonly refused: readonly string[];
    };

interface Pending {
  readonly judge: (message: Msg) => ReplyVerdict<unknown>;
  readonly refused: string[];
  readonly settle: (outcome: InboxOutcome<unknown>) => void;
}

/**
 * Requests that wait for the reply they trust: unlike `connection.request`,
 * which takes the first message on its inbox, a refused reply (not signed by
 * the instance asked) is set aside and the request keeps waiting for the
 * right one until its timeout. One subscription serves every request.
 *
 * @example
 * ```ts
 * const inbox = new ReplyInbox(connection);
 * const outcome = await inbox.request('arena.component.tank.at.k3x9', payload, 10_000, (message) =>
 *   verifyReply(instanceKey, request, message.data, message.headers?.get(SIGNATURE_HEADER))
 *     ? { taken: message }
 *     : { refused: 'not signed by k3x9' },
 * );
 * 'taken' in outcome; // true, or outcome.missing === 'timeout' with outcome.refused listing the forgeries
 * ```
 */
export class ReplyInbox {
  private readonly prefix: string;
  private readonly pending = new Map<string, Pending>();
  private next = 0;

  /** `inboxPrefix`: the connection's (`_INBOX.<user>` on an authorized server), default `_INBOX`. */
  constructor(
    private readonly connection: NatsConnection,
    inboxPrefix?: string,
  ) {
    this.prefix = createInbox(inboxPrefix);
    connection.subscribe(`${this.prefix}.*`, {
      callback: (error, message) => {
        if (error === null) this.deliver(message);
      },
    });
  }

  request<T>(
    subject: string,
    payload: Uint8Array,
    timeoutMs: number,
    judge: (message: Msg) => ReplyVerdict<T>,
  ): Promise<InboxOutcome<T>> {
    const token = String(++this.next);
    return new Promise<InboxOutcome<T>>((resolve) => {
      const refused: string[] = [];
      const settle = (outcome: InboxOutcome<unknown>) => {
        clearTimeout(timer);
        this.pending.delete(token);
        resolve(outcome as InboxOutcome<T>);
      };
      const timer = setTimeout(() => settle({ missing: 'timeout', refused }), timeoutMs);
      this.pending.set(token, { judge, refused, settle });
      try {
        this.connection.publish(subject, payload, { reply: `${this.prefix}.${token}` });
      } catch {
        // a closed or draining connection: no reply can come, as when none does in time
        settle({ missing: 'timeout', refused });
      }
    });
  }

  private deliver(message: Msg): void {
    const token = message.subject.slice(this.prefix.length + 1);
    const pending = this.pending.get(token);
    if (pending === undefined) return;
    // the server's "no responders" status: nobody subscribes to the subject
    if (message.data.length === 0 && message.headers?.code === 503) {
      pending.settle({ missing: 'no-responders', refused: pending.refused });
      return;
    }
    const verdict = pending.judge(message);
    if ('taken' in verdict) {
      pending.settle({ taken: verdict.taken, refused: pending.refused });
      return;
    }
    pending.refused.push(verdict.refused);
    if (verdict.final === true) pending.settle({ missing: 'untrusted', refused: pending.refused });
  }
}
