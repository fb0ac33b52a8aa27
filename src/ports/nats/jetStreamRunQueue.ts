import {
  type Consumer,
  type JetStreamClient,
  JetStreamError,
  type JsMsg,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  defaultAckWaitMs,
  type RunDelivery,
  type RunQueue,
  RunQueueError,
  type RunQueueOptions,
} from '../queue/runQueue.js';
import { connectForQueue, ensureWorkQueueStream, queueSetupError } from './jetStreamSetup.js';
import { permissionRefusal, publishRefusals } from './natsPermission.js';
import { natsStatusHints } from './natsStatusHints.js';
import { ensureSharedConsumer, givenSetting } from './sharedConsumer.js';
import { queuedMessageIds } from './streamContents.js';

/** The run queue's JetStream settings, and the server. */
export interface JetStreamRunQueueOptions extends RunQueueOptions {
  /** The NATS server, e.g. `nats://127.0.0.1:4222`. */
  readonly url: string;
}

/** The fleet-wide cap on runs in progress when the consumer is first created. */
const defaultMaxInProgress = 1000;

/**
 * The run queue on a NATS JetStream server: a work-queue stream (a message
 * is gone once acked), one durable pull consumer shared by every worker,
 * explicit acks, and the run id as message id so JetStream's duplicate
 * window drops a second submit of the same run; status hints on plain
 * subjects `arena.runs.status.<run as hex>`. Creates the stream and the
 * consumer when missing. A consumer there already keeps its ack wait and
 * in-progress cap, the fleet's: one given that differs is refused with
 * `ConsumerSettingsError`, or set with `consume.reconfigureFleet`.
 *
 * @example
 * ```ts
 * const queue = await openJetStreamRunQueue({ url: 'nats://127.0.0.1:4222', ackWaitMs: 30_000 });
 * await queue.submit(runId); // { duplicate: false }
 * const delivery = await queue.next({ waitMs: 1000 });
 * ```
 */
export async function openJetStreamRunQueue(options: JetStreamRunQueueOptions): Promise<RunQueue> {
  const stream = options.stream ?? 'ARENA_RUNS';
  const subject = options.subject ?? 'arena.runs.queued';
  const statusSubject = options.statusSubject ?? 'arena.runs.status';
  const durable = options.consumer ?? 'arena-workers';
  const nc = await connectForQueue(options.url, options.name ?? 'arena', options.credentials);
  try {
    const jsm = await jetstreamManager(nc);
    await ensureWorkQueueStream(jsm, stream, [subject], options.duplicateWindowMs);
    const js = jetstream(nc);
    const { consume } = options;
    const queued = () =>
      queuedMessageIds(jsm, stream, subject).catch((error: unknown) => {
        throw permissionRefusal(error, options.url) ?? error;
      });
    const hints = natsStatusHints(nc, { subjectPrefix: statusSubject, field: 'runId' });
    if (consume === undefined) {
      return jetStreamQueue(nc, js, null, subject, queued, options.url, hints);
    }
    // run again when a pull fails: a server back without its folder has lost the consumer and the stream
    const setUp = async (): Promise<Consumer> => {
      await ensureWorkQueueStream(jsm, stream, [subject], options.duplicateWindowMs);
      const ackWaitMs = consume.ackWaitMs ?? defaultAckWaitMs;
      const maxAckPending = consume.maxInProgress ?? defaultMaxInProgress;
      await ensureSharedConsumer(
        jsm,
        stream,
        { durable, subject, ackWaitMs, maxAckPending },
        {
          queue: 'run queue',
          given: [
            ...givenSetting('ack_wait', ackWaitMs, '1.5 x ARENA_LEASE_TTL_MS'),
            ...givenSetting('max_ack_pending', consume.maxInProgress, '--max-in-progress'),
          ],
          reconfigureFleet: consume.reconfigureFleet === true,
        },
      );
      return js.consumers.get(stream, durable);
    };
    return jetStreamQueue(
      nc,
      js,
      {
        consumer: await setUp(),
        checkedAt: Date.now(),
        setUp,
        refusals: publishRefusals(nc, options.url, [
          `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
        ]),
      },
      subject,
      queued,
      options.url,
      hints,
    );
  } catch (error) {
    throw await queueSetupError(nc, 'run queue', options.url, error);
  }
}

function jetStreamQueue(
  nc: NatsConnection,
  js: JetStreamClient,
  pulling: {
    consumer: Consumer;
    checkedAt: number;
    readonly setUp: () => Promise<Consumer>;
    /** A role that may not pull: its pulls bring nothing, and the server says why only here. */
    readonly refusals: ReturnType<typeof publishRefusals>;
  } | null,
  subject: string,
  queuedRunIds: () => Promise<Set<string>>,
  url: string,
  hints: ReturnType<typeof natsStatusHints>,
): RunQueue {
  return {
    ...hints,
    queuedRunIds,
    async submit(runId, submitOptions) {
      const body = new TextEncoder().encode(JSON.stringify({ runId }));
      const msgID = submitOptions?.messageId ?? runId;
      const ack = await js.publish(subject, body, { msgID }).catch((error: unknown) => {
        throw permissionRefusal(error, url) ?? error;
      });
      return { duplicate: ack.duplicate };
    },
    async next({ waitMs }) {
      if (pulling === null) throw new RunQueueError('this run queue was opened to submit only');
      const message = await nextOrNull(
        pulling.consumer,
        Math.max(minPullMs, waitMs),
        pulling.refusals,
      ).catch(async (error: unknown) => {
        pulling.consumer = await pulling.setUp().catch(() => pulling.consumer);
        throw pulling.refusals.refused() ?? error;
      });
      if (message === null) {
        const refused = pulling.refusals.refused();
        if (refused !== null) throw refused;
        // a pull of a consumer the server lost ends empty, not in an error: look now and then
        if (Date.now() - pulling.checkedAt > consumerCheckMs) {
          pulling.checkedAt = Date.now();
          pulling.consumer = await pulling.setUp().catch(() => pulling.consumer);
        }
        return null;
      }
      const { runId } = message.json<{ runId: string }>();
      const delivery: RunDelivery = {
        runId,
        deliveryCount: message.info.deliveryCount,
        working: () => message.working(),
        // ackAck: the worker learns whether the server took the ack (else the run comes back, harmlessly)
        ack: async () => {
          await message.ackAck();
        },
        nak: (delayMs) => message.nak(delayMs),
      };
      return delivery;
    },
    async close() {
      if (!nc.isClosed()) await nc.drain().catch(() => nc.close());
    },
  };
}

/**
 * Pulls last at least 2 s with a server heartbeat every 0.5 s: the client
 * gives a pull up after two missed heartbeats, so a 1 s pull (heartbeat
 * clamped to 0.5 s) would race its own expiry and drop what it carried.
 */
export const minPullMs = 2000;
/** How often an idle worker checks that its stream and consumer still exist. */
export const consumerCheckMs = 5000;
export const pullHeartbeatMs = 500;

/**
 * One pull of one message. A pull whose server heartbeats arrive late (a
 * loaded machine stalls the event loop past two of them) ends in
 * "heartbeats missed": that is a pull that got nothing, not a broken queue;
 * a message the server sent meanwhile stays unacked and comes back after the
 * ack wait.
 */
async function nextOrNull(
  consumer: Consumer,
  expires: number,
  refusals: ReturnType<typeof publishRefusals>,
): Promise<JsMsg | null> {
  let stopWatching = (): void => undefined;
  try {
    const messages = await consumer.fetch({
      max_messages: 1,
      expires,
      idle_heartbeat: pullHeartbeatMs,
    });
    // a refused pull brings nothing: end it now rather than at its expiry
    stopWatching = refusals.whileWaiting(() => messages.stop());
    for await (const message of messages) return message;
    return null;
  } catch (error) {
    if (error instanceof JetStreamError && error.message === 'heartbeats missed') return null;
    throw error;
  } finally {
    stopWatching();
  }
}
