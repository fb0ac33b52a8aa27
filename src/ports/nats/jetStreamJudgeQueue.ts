import {
  AckPolicy,
  type Consumer,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  JetStreamError,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  StorageType,
} from '@nats-io/jetstream';
import {
  defaultJudgeAckWaitMs,
  defaultJudgeMaxInFlight,
  type JudgeQueue,
  type JudgeQueueOptions,
  type ModelPause,
  type QueuedCase,
  type QueuedCaseDelivery,
} from '../judgeQueue.js';
import { RunQueueError } from '../runQueue.js';
import { consumerCheckMs, minPullMs, pullHeartbeatMs } from './jetStreamRunQueue.js';
import {
  connectForQueue,
  ensureStream,
  ensureWorkQueueStream,
  isApiError,
  nanos,
  queueSetupError,
} from './jetStreamSetup.js';
import { permissionRefusal } from './natsPermission.js';

/** The judge queue's JetStream settings, and the server. */
export interface JetStreamJudgeQueueOptions extends JudgeQueueOptions {
  /** The NATS server, e.g. `nats://127.0.0.1:4222`. */
  readonly url: string;
}

const durable = 'arena-judges';

/** A case's message id: JetStream drops a second message of the same id as a duplicate. */
const msgIdOf = (job: QueuedCase, caseKey: string): string => `${job.evaluationRunId}:${caseKey}`;

/** A run id or a pause key as one subject token: they may hold `.`, which NATS reads as a separator. */
const subjectToken = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

/**
 * The judge queue on a NATS JetStream server: a work-queue stream of cases
 * (`<prefix>.cases.<run>`), one durable pull consumer shared by every worker
 * whose `max_ack_pending` is the fleet's cap on judgements in flight, explicit
 * acks, and `<run>:<case>` as message id so a duplicate case is dropped. The
 * fleet's signals (a run cancelled, a model paused) are plain NATS subjects.
 *
 * @example
 * ```ts
 * const queue = await openJetStreamJudgeQueue({ url: 'nats://127.0.0.1:4222', consume: {} });
 * for await (const delivery of queue.take(8, 1000)) await delivery.ack();
 * ```
 */
export async function openJetStreamJudgeQueue(
  options: JetStreamJudgeQueueOptions,
): Promise<JudgeQueue> {
  const stream = options.stream ?? 'ARENA_JUDGE';
  const prefix = options.prefix ?? 'arena.judge';
  const nc = await connectForQueue(options.url, options.name ?? 'arena judge');
  try {
    const jsm = await jetstreamManager(nc);
    const js = jetstream(nc);
    // run again when a pull fails: a server back without its folder has lost the consumer and the stream
    const setUp = async (): Promise<Consumer> => {
      await ensureWorkQueueStream(jsm, stream, [`${prefix}.cases.>`], options.duplicateWindowMs);
      await ensureConsumer(jsm, stream, `${prefix}.cases.>`, options);
      return js.consumers.get(stream, durable);
    };
    let consumer = options.consume === undefined ? null : await setUp();
    if (consumer === null) {
      await ensureWorkQueueStream(jsm, stream, [`${prefix}.cases.>`], options.duplicateWindowMs);
      await ensureConsumer(jsm, stream, `${prefix}.cases.>`, options);
    }
    let checkedAt = Date.now();
    const healing = async function* (pull: AsyncGenerator<QueuedCaseDelivery>) {
      let received = 0;
      try {
        for await (const delivery of pull) {
          received++;
          yield delivery;
        }
      } catch (error) {
        consumer = await setUp().catch(() => consumer);
        throw error;
      }
      // a pull of a consumer the server lost ends empty, not in an error: look now and then
      if (received === 0 && Date.now() - checkedAt > consumerCheckMs) {
        checkedAt = Date.now();
        consumer = await setUp().catch(() => consumer);
      }
    };
    const listeners = {
      cancel: new Set<(id: string) => void>(),
      pause: new Set<(pause: ModelPause) => void>(),
    };
    // only workers hear cancels: a submitter's role may not subscribe, and a refused one calls back with an error
    if (options.consume !== undefined) {
      nc.subscribe(`${prefix}.cancel`, {
        callback: (error, message) => {
          if (error !== null) return;
          const { evaluationRunId } = message.json<{ evaluationRunId: string }>();
          for (const listener of listeners.cancel) listener(evaluationRunId);
        },
      });
    }
    // the pauses seen so far, told to a listener that comes after them
    const latestPauses = new Map<string, ModelPause>();
    // pauses live in a stream keeping the last per model: a worker that starts during a pause learns of it
    const pauseStream = `${stream}_PAUSES`;
    await ensureStream(jsm, {
      name: pauseStream,
      subjects: [`${prefix}.pause.*`],
      max_msgs_per_subject: 1,
      // a pause outlives no retry-after worth waiting for
      max_age: nanos(60 * 60_000),
      storage: StorageType.File,
    });
    const feed =
      options.consume === undefined
        ? null
        : await (
            await js.consumers.get(pauseStream, { deliver_policy: DeliverPolicy.LastPerSubject })
          ).consume();
    void (async () => {
      if (feed === null) return;
      for await (const message of feed) {
        const pause = message.json<ModelPause>();
        latestPauses.set(pause.key, pause);
        for (const listener of listeners.pause) listener(pause);
      }
    })().catch(() => undefined);
    const encoder = new TextEncoder();
    const maxPayload = nc.info?.max_payload;
    const queue: JudgeQueue = {
      ...(maxPayload !== undefined
        ? {
            messageLimit: {
              maxBytes: maxPayload,
              // what the client checks against max_payload: the body and the encoded headers
              bytesOf: (job: QueuedCase, caseKey: string) =>
                Buffer.byteLength(JSON.stringify(job)) +
                Buffer.byteLength(`NATS/1.0\r\nNats-Msg-Id: ${msgIdOf(job, caseKey)}\r\n\r\n`),
            },
          }
        : {}),
      async submit(job: QueuedCase, caseKey: string) {
        const ack = await js
          .publish(
            `${prefix}.cases.${subjectToken(job.evaluationRunId)}`,
            encoder.encode(JSON.stringify(job)),
            { msgID: msgIdOf(job, caseKey) },
          )
          .catch((error: unknown) => {
            throw permissionRefusal(error, options.url) ?? error;
          });
        return { duplicate: ack.duplicate };
      },
      take(max, waitMs) {
        if (consumer === null)
          throw new RunQueueError('this judge queue was opened to submit only');
        return healing(deliveries(consumer, max, Math.max(minPullMs, waitMs)));
      },
      async purge(evaluationRunId) {
        await jsm.streams.purge(stream, {
          filter: `${prefix}.cases.${subjectToken(evaluationRunId)}`,
        });
      },
      announceCancel(evaluationRunId) {
        nc.publish(`${prefix}.cancel`, JSON.stringify({ evaluationRunId }));
      },
      onCancel(listener) {
        listeners.cancel.add(listener);
        return () => listeners.cancel.delete(listener);
      },
      announcePause(pause) {
        // best effort: a lost announcement costs one more 429, never a wrong verdict
        js.publish(`${prefix}.pause.${subjectToken(pause.key)}`, JSON.stringify(pause)).catch(
          () => undefined,
        );
      },
      onPause(listener) {
        listeners.pause.add(listener);
        for (const pause of latestPauses.values()) listener(pause);
        return () => listeners.pause.delete(listener);
      },
      async close() {
        feed?.stop();
        if (!nc.isClosed()) await nc.drain().catch(() => nc.close());
      },
    };
    return queue;
  } catch (error) {
    throw await queueSetupError(nc, 'judge queue', options.url, error);
  }
}

/** One pull of up to `max` cases; late heartbeats (a loaded machine) end the pull, they break nothing. */
async function* deliveries(
  consumer: Consumer,
  max: number,
  expires: number,
): AsyncGenerator<QueuedCaseDelivery> {
  const messages = await consumer.fetch({
    max_messages: max,
    expires,
    idle_heartbeat: pullHeartbeatMs,
  });
  try {
    for await (const message of messages) {
      yield {
        job: message.json<QueuedCase>(),
        deliveryCount: message.info.deliveryCount,
        working: () => message.working(),
        ack: async () => {
          await message.ackAck();
        },
        nak: (delayMs) => message.nak(delayMs),
      };
    }
  } catch (error) {
    if (!(error instanceof JetStreamError && error.message === 'heartbeats missed')) throw error;
  } finally {
    messages.stop();
  }
}

async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  subject: string,
  options: JetStreamJudgeQueueOptions,
): Promise<void> {
  const ackWait = nanos(options.consume?.ackWaitMs ?? defaultJudgeAckWaitMs);
  let exists = true;
  try {
    const info = await jsm.consumers.info(stream, durable);
    const update = {
      ...(options.consume !== undefined && info.config.ack_wait !== ackWait
        ? { ack_wait: ackWait }
        : {}),
      ...(options.maxInFlight !== undefined && info.config.max_ack_pending !== options.maxInFlight
        ? { max_ack_pending: options.maxInFlight }
        : {}),
    };
    if (Object.keys(update).length > 0) await jsm.consumers.update(stream, durable, update);
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
    exists = false;
  }
  if (!exists && (options.consume !== undefined || options.maxInFlight !== undefined)) {
    try {
      await jsm.consumers.add(stream, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: ackWait,
        max_ack_pending: options.maxInFlight ?? defaultJudgeMaxInFlight,
        max_deliver: -1,
        filter_subject: subject,
      });
    } catch (error) {
      if (!(error instanceof JetStreamApiError)) throw error;
      await jsm.consumers.info(stream, durable);
    }
  }
}
