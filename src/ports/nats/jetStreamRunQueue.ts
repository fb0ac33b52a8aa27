import {
  AckPolicy,
  type Consumer,
  type ConsumerConfig,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  JetStreamError,
  type JetStreamManager,
  type JsMsg,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  type ConsumerSettingDifference,
  ConsumerSettingsError,
  defaultAckWaitMs,
  type RunDelivery,
  type RunQueue,
  RunQueueError,
  type RunQueueOptions,
} from '../runQueue.js';
import {
  connectForQueue,
  ensureWorkQueueStream,
  isApiError,
  nanos,
  queueSetupError,
} from './jetStreamSetup.js';
import { permissionRefusal } from './natsPermission.js';

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
 * window drops a second submit of the same run. Creates the stream and the
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
  const durable = options.consumer ?? 'arena-workers';
  const nc = await connectForQueue(options.url, options.name ?? 'arena');
  try {
    const jsm = await jetstreamManager(nc);
    await ensureWorkQueueStream(jsm, stream, [subject], options.duplicateWindowMs);
    const js = jetstream(nc);
    const { consume } = options;
    if (consume === undefined) return jetStreamQueue(nc, js, null, subject, options.url);
    // run again when a pull fails: a server back without its folder has lost the consumer and the stream
    const setUp = async (): Promise<Consumer> => {
      await ensureWorkQueueStream(jsm, stream, [subject], options.duplicateWindowMs);
      await ensureConsumer(
        jsm,
        stream,
        {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          ack_wait: nanos(consume.ackWaitMs ?? defaultAckWaitMs),
          max_ack_pending: consume.maxInProgress ?? defaultMaxInProgress,
          max_deliver: -1,
          filter_subject: subject,
        },
        consume.maxInProgress !== undefined,
        consume.reconfigureFleet === true,
      );
      return js.consumers.get(stream, durable);
    };
    return jetStreamQueue(
      nc,
      js,
      { consumer: await setUp(), checkedAt: Date.now(), setUp },
      subject,
      options.url,
    );
  } catch (error) {
    if (error instanceof ConsumerSettingsError) {
      await nc.close().catch(() => undefined);
      throw error;
    }
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
  } | null,
  subject: string,
  url: string,
): RunQueue {
  return {
    async submit(runId) {
      const body = new TextEncoder().encode(JSON.stringify({ runId }));
      const ack = await js.publish(subject, body, { msgID: runId }).catch((error: unknown) => {
        throw permissionRefusal(error, url) ?? error;
      });
      return { duplicate: ack.duplicate };
    },
    async next({ waitMs }) {
      if (pulling === null) throw new RunQueueError('this run queue was opened to submit only');
      const message = await nextOrNull(pulling.consumer, Math.max(minPullMs, waitMs)).catch(
        async (error: unknown) => {
          pulling.consumer = await pulling.setUp().catch(() => pulling.consumer);
          throw error;
        },
      );
      if (message === null) {
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
async function nextOrNull(consumer: Consumer, expires: number): Promise<JsMsg | null> {
  try {
    const messages = await consumer.fetch({
      max_messages: 1,
      expires,
      idle_heartbeat: pullHeartbeatMs,
    });
    for await (const message of messages) return message;
    return null;
  } catch (error) {
    if (error instanceof JetStreamError && error.message === 'heartbeats missed') return null;
    throw error;
  }
}

async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  config: Partial<ConsumerConfig> & { durable_name: string },
  setMaxInProgress: boolean,
  reconfigureFleet: boolean,
): Promise<void> {
  try {
    const info = await jsm.consumers.info(stream, config.durable_name);
    const maxAckPending = setMaxInProgress ? config.max_ack_pending : info.config.max_ack_pending;
    const differences: ConsumerSettingDifference[] = [];
    if (config.ack_wait !== undefined && info.config.ack_wait !== config.ack_wait) {
      const fleet = (info.config.ack_wait ?? 0) / 1e6;
      differences.push({ setting: 'ack_wait', fleet, worker: config.ack_wait / 1e6 });
    }
    if (maxAckPending !== undefined && info.config.max_ack_pending !== maxAckPending) {
      const fleet = info.config.max_ack_pending ?? -1;
      differences.push({ setting: 'max_ack_pending', fleet, worker: maxAckPending });
    }
    if (differences.length > 0) {
      // every worker works by the shared consumer's settings: only a deliberate fleet change sets them
      if (!reconfigureFleet) throw new ConsumerSettingsError(config.durable_name, differences);
      await jsm.consumers.update(stream, config.durable_name, {
        ...(config.ack_wait !== undefined ? { ack_wait: config.ack_wait } : {}),
        ...(maxAckPending !== undefined ? { max_ack_pending: maxAckPending } : {}),
      });
    }
    return;
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
  }
  try {
    await jsm.consumers.add(stream, config);
  } catch (error) {
    // another worker created it at the same moment
    if (!(error instanceof JetStreamApiError)) throw error;
    await jsm.consumers.info(stream, config.durable_name);
  }
}
