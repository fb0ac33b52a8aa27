import type { QueueDelivery } from './runQueue.js';

/**
 * How many cases of one evaluation run a judge-queue message carries, unless
 * the fleet's cap is smaller. Eight: each message costs the bus a publish,
 * its puback, a delivery and an ack whatever it holds, so eight cases a
 * message bring the bus below one message per case each way (measured at
 * 2.3 in and 2.0 out with one case a message); a message is acked only once
 * every one of its cases has its verdict, so a worker that dies costs at most
 * eight redelivered cases (those already judged are found in the store,
 * never judged again), and a worker of 16 slots still fills them from two
 * messages.
 *
 * @example
 * ```ts
 * defaultCasesPerMessage; // 8
 * ```
 */
export const defaultCasesPerMessage = 8;

/**
 * The cases a message may carry under a fleet cap of `maxInFlight` judgements
 * (a message is in flight whole, so it never holds more than the cap), and
 * the messages in flight that keep to it: `floor(cap / cases)`, so messages
 * times cases never pass the cap.
 *
 * @example
 * ```ts
 * messagesForCap(5); // { casesPerMessage: 5, maxMessages: 1 }
 * messagesForCap(128); // { casesPerMessage: 8, maxMessages: 16 }
 * ```
 */
export function messagesForCap(
  maxInFlight: number,
  casesPerMessage = defaultCasesPerMessage,
): { readonly casesPerMessage: number; readonly maxMessages: number } {
  const cases = Math.max(1, Math.min(casesPerMessage, maxInFlight));
  return { casesPerMessage: cases, maxMessages: Math.max(1, Math.floor(maxInFlight / cases)) };
}

/**
 * The cases a message may carry when this process gives no cap and the fleet's
 * consumer allows `fleetMessages` messages in flight. The cap it was set with
 * (in judgements) is not kept, but {@link messagesForCap} only ever gives a
 * single message for a cap under 8: two or more messages mean the cap was at
 * least `fleetMessages` times `casesPerMessage`, so full messages keep to it;
 * a single one may stand for a cap as small as one judgement, so each message
 * then carries one case. `-1` is JetStream's "no limit".
 *
 * @example
 * ```ts
 * casesUnderFleetCap(16); // 8
 * casesUnderFleetCap(1); // 1 (the fleet's cap may be 5 judgements)
 * casesUnderFleetCap(-1); // 8 (no cap)
 * ```
 */
export const casesUnderFleetCap = (
  fleetMessages: number,
  casesPerMessage = defaultCasesPerMessage,
): number => (fleetMessages < 0 || fleetMessages >= 2 ? casesPerMessage : 1);

/**
 * The deliveries of one message's cases, one per case, settled together:
 * the message is acked once every case is acked (each only after its verdict
 * committed), and handed back (naked, after the longest delay asked) once
 * every case is settled and any was handed back: its redelivery finds the
 * verdicts already committed and judges only the rest. A `working` of any
 * case keeps the whole message in progress; the calls of one moment (a
 * worker's keep-alive tick over its cases) reach the server once.
 *
 * @example
 * ```ts
 * const [first, second] = casesOfMessage(message, 2);
 * await first.ack(); // nothing reaches the server yet
 * await second.ack(); // the message is acked
 * ```
 */
export function casesOfMessage(message: QueueDelivery, cases: number): QueueDelivery[] {
  let unsettled = cases;
  let handedBack = false;
  let delayMs: number | undefined;
  let told = false;
  // the last case settled tells the server; an ack that fails leaves that case to settle again
  const settle = async (): Promise<void> => {
    if (--unsettled > 0) return;
    if (handedBack) return message.nak(delayMs);
    try {
      await message.ack();
    } catch (error) {
      unsettled++;
      throw error;
    }
  };
  return Array.from({ length: cases }, () => {
    let settled = false;
    return {
      deliveryCount: message.deliveryCount,
      working: () => {
        if (settled || told) return;
        told = true;
        queueMicrotask(() => {
          told = false;
        });
        message.working();
      },
      ack: async () => {
        if (settled) return;
        settled = true;
        await settle().catch((error: unknown) => {
          settled = false;
          throw error;
        });
      },
      nak: (delay?: number) => {
        if (settled) return;
        settled = true;
        handedBack = true;
        if (delay !== undefined) delayMs = Math.max(delayMs ?? 0, delay);
        void settle().catch(() => undefined);
      },
    };
  });
}
