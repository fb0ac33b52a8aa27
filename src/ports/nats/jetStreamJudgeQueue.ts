import { createHash } from 'node:crypto';
import {
  type Consumer,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamError,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  StorageType,
} from '@nats-io/jetstream';
import {
  casesOfMessage,
  casesUnderFleetCap,
  defaultCasesPerMessage,
  messagesForCap,
} from '../queue/caseBatches.js';
import {
  checkControlMessage,
  modelPauseMessage,
  runCancelMessage,
} from '../queue/judgeControlMessages.js';
import {
  defaultJudgeAckWaitMs,
  defaultJudgeMaxInFlight,
  type JudgeBatchReceipt,
  type JudgeQueue,
  type JudgeQueueOptions,
  type ModelPause,
  modelPauseMaxAgeMs,
  type QueuedCase,
  type QueuedCaseDelivery,
} from '../queue/judgeQueue.js';
import { RunQueueError } from '../queue/runQueue.js';
import { consumerCheckMs, minPullMs, pullHeartbeatMs } from './jetStreamRunQueue.js';
import {
  connectForQueue,
  ensureStream,
  ensureWorkQueueStream,
  isApiError,
  nanos,
  queueSetupError,
} from './jetStreamSetup.js';
import { permissionRefusal, publishRefusals } from './natsPermission.js';
import { natsStatusHints, subjectToken } from './natsStatusHints.js';
import { ensureSharedConsumer, givenSetting } from './sharedConsumer.js';
import { forEachQueuedMessage } from './streamContents.js';

/** The judge queue's JetStream settings, and the server. */
export interface JetStreamJudgeQueueOptions extends JudgeQueueOptions {
  /** The NATS server, e.g. `nats://127.0.0.1:4222`. */
  readonly url: string;
}

const durable = 'arena-judges';

/** How long a pause feed that ended waits before it follows the stream again. */
const pauseFeedRetryMs = 500;

/** A case's message id: JetStream drops a second message of the same id as a duplicate. */
const msgIdOf = (job: QueuedCase): string => `${job.evaluationRunId}:${job.caseKey}`;

/**
 * A message of cases of one run: one case keeps a case's own body and id, so
 * a case queued alone (a requeue) and queued in a message of one are the
 * same message; several are named by a digest of their sorted keys, so the
 * same cases published again, in any order, are a duplicate.
 */
function messageOf(jobs: readonly QueuedCase[]): { body: string; msgID: string } {
  const [first] = jobs;
  if (first === undefined) throw new RangeError('a message of no cases');
  const evaluationRunId = first.evaluationRunId;
  if (jobs.length === 1)
    return {
      body: JSON.stringify({ evaluationRunId, caseKey: first.caseKey }),
      msgID: msgIdOf(first),
    };
  const caseKeys = jobs.map((job) => job.caseKey);
  // the keys in order: the same cases from a requeue's page are the same message
  const digest = createHash('sha256')
    .update(JSON.stringify([...caseKeys].sort()))
    .digest('hex');
  return {
    body: JSON.stringify({ evaluationRunId, caseKeys }),
    msgID: `${evaluationRunId}:cases-${digest.slice(0, 32)}`,
  };
}

/**
 * The judge queue on a NATS JetStream server: a work-queue stream of cases
 * (`<prefix>.cases.<run>`), one durable pull consumer shared by every worker
 * whose `max_ack_pending` is the fleet's cap on judgements in flight, explicit
 * acks, and `<run>:<case>` as message id so a duplicate case is dropped. The
 * fleet's signals (a run cancelled, a model paused) are plain NATS subjects;
 * a malformed one is dropped with a warning to `logger`.
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
  const nc = await connectForQueue(options.url, options.name ?? 'arena judge', options.credentials);
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
    // a role that may not pull: its pulls bring nothing, and the server says why only here
    const pullRefusals = publishRefusals(nc, options.url, [
      `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
    ]);
    const healing = async function* (pull: AsyncGenerator<QueuedCaseDelivery>) {
      let received = 0;
      try {
        for await (const delivery of pull) {
          received++;
          yield delivery;
        }
      } catch (error) {
        consumer = await setUp().catch(() => consumer);
        throw pullRefusals.refused() ?? error;
      }
      const refused = pullRefusals.refused();
      if (received === 0 && refused !== null) throw refused;
      // a pull of a consumer the server lost ends empty, not in an error: look now and then
      if (received === 0 && Date.now() - checkedAt > consumerCheckMs) {
        checkedAt = Date.now();
        consumer = await setUp().catch(() => consumer);
      }
    };
    const logger = options.logger;
    const dropped = (subject: string, reason: string): void =>
      logger?.warn({ subject, reason }, 'a control message was dropped');
    const cancelListeners = new Set<(id: string) => void>();
    // only workers hear cancels: a submitter's role may not subscribe, and a refused one calls back with an error
    if (options.consume !== undefined) {
      nc.subscribe(`${prefix}.cancel`, {
        callback: (error, message) => {
          if (error !== null) return;
          const checked = checkControlMessage(runCancelMessage, message.data);
          if (!checked.ok) dropped(message.subject, checked.reason);
          else for (const listener of cancelListeners) listener(checked.value.evaluationRunId);
        },
      });
    }
    // pauses live in a stream keeping the last per model: a worker that starts during a pause learns of it
    const pauseStream = `${stream}_PAUSES`;
    const ensurePauseStream = () =>
      ensureStream(jsm, {
        name: pauseStream,
        subjects: [`${prefix}.pause.*`],
        max_msgs_per_subject: 1,
        max_age: nanos(modelPauseMaxAgeMs),
        storage: StorageType.File,
      });
    await ensurePauseStream();
    let closed = false;
    const pauseFeeds = new Set<{ stop(): void }>();
    // after a reconnect every pause feed follows the stream afresh: a server back without its
    // folder lost the stream and the feeds' consumers, and a feed does not notice on its own
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'reconnect') for (const feed of pauseFeeds) feed.stop();
      }
    })().catch(() => undefined);
    /** A pause's message, checked: its subject must be its own model's, or it could shadow another's. */
    const checkedPause = (subject: string, data: Uint8Array): ModelPause | null => {
      const checked = checkControlMessage(modelPauseMessage, data);
      if (!checked.ok) {
        dropped(subject, checked.reason);
        return null;
      }
      if (subject !== `${prefix}.pause.${subjectToken(checked.value.key)}`) {
        dropped(subject, 'key: not the model its subject names');
        return null;
      }
      return checked.value;
    };
    const statusHints = natsStatusHints(nc, {
      subjectPrefix: `${prefix}.status`,
      field: 'evaluationRunId',
      dropped,
    });
    const encoder = new TextEncoder();
    const maxPayload = nc.info?.max_payload;
    // no cap given: the fleet's, as its consumer keeps it in messages, bounds the cases a message holds
    const casesPerMessage =
      options.maxInFlight === undefined
        ? casesUnderFleetCap(
            await fleetMessagesInFlight(jsm, stream, durable),
            options.casesPerMessage ?? defaultCasesPerMessage,
          )
        : messagesForCap(options.maxInFlight, options.casesPerMessage).casesPerMessage;
    /** Publish one message of cases; its receipt says whether the queue held it already. */
    const publishCases = async (jobs: readonly QueuedCase[]): Promise<boolean> => {
      const { body, msgID } = messageOf(jobs);
      const ack = await js
        .publish(
          `${prefix}.cases.${subjectToken(jobs[0]?.evaluationRunId ?? '')}`,
          encoder.encode(body),
          {
            msgID,
          },
        )
        .catch((error: unknown) => {
          throw permissionRefusal(error, options.url) ?? error;
        });
      return ack.duplicate;
    };
    const queue: JudgeQueue = {
      ...(maxPayload !== undefined
        ? {
            messageLimit: {
              maxBytes: maxPayload,
              // what the client checks against max_payload: the body and the encoded headers
              bytesOf: (job: QueuedCase) =>
                Buffer.byteLength(JSON.stringify(job)) +
                Buffer.byteLength(`NATS/1.0\r\nNats-Msg-Id: ${msgIdOf(job)}\r\n\r\n`),
            },
          }
        : {}),
      async submit(job: QueuedCase) {
        // the name of a stored case, not the case: its texts stay in the store
        return { duplicate: await publishCases([job]) };
      },
      casesPerMessage,
      async submitCases(jobs): Promise<JudgeBatchReceipt> {
        // messages of up to casesPerMessage cases, each within the server's max_payload
        const messages: QueuedCase[][] = [];
        let bytes = 0;
        for (const job of jobs) {
          const last = messages[messages.length - 1];
          const size = Buffer.byteLength(JSON.stringify(job.caseKey)) + 1;
          if (
            last === undefined ||
            last.length >= casesPerMessage ||
            (maxPayload !== undefined && bytes + size > maxPayload - 512)
          ) {
            messages.push([job]);
            bytes = Buffer.byteLength(job.evaluationRunId) * 2 + size + 128;
          } else {
            last.push(job);
            bytes += size;
          }
        }
        const receipts = await Promise.all(messages.map(publishCases));
        let duplicates = 0;
        receipts.forEach((duplicate, index) => {
          if (duplicate) duplicates += messages[index]?.length ?? 0;
        });
        return { duplicates };
      },
      take(max, waitMs) {
        if (consumer === null)
          throw new RunQueueError('this judge queue was opened to submit only');
        return healing(
          deliveries(
            consumer,
            // a pull asks for as many messages as the free slots hold cases, one at least
            Math.max(1, Math.floor(max / casesPerMessage)),
            Math.max(minPullMs, waitMs),
            pullRefusals,
            (subject) => logger?.warn({ subject }, 'a case message that names no case was dropped'),
          ),
        );
      },
      async queuedCaseKeys(evaluationRunId) {
        const keys = new Set<string>();
        await forEachQueuedMessage(
          jsm,
          stream,
          `${prefix}.cases.${subjectToken(evaluationRunId)}`,
          (message) => {
            for (const job of queuedCasesOf(message.data) ?? []) keys.add(job.caseKey);
          },
        ).catch((error: unknown) => {
          throw permissionRefusal(error, options.url) ?? error;
        });
        return keys;
      },
      async purge(evaluationRunId) {
        await jsm.streams.purge(stream, {
          filter: `${prefix}.cases.${subjectToken(evaluationRunId)}`,
        });
      },
      announceCancel(evaluationRunId) {
        // a hint only: each worker reads the run from the store before it cancels anything
        nc.publish(`${prefix}.cancel`, JSON.stringify({ evaluationRunId }));
        queue.announceStatus?.(evaluationRunId);
      },
      onCancel(listener) {
        cancelListeners.add(listener);
        return () => cancelListeners.delete(listener);
      },
      ...statusHints,
      announcePause(pause) {
        // best effort: a lost announcement costs one more 429, never a wrong verdict
        const subject = `${prefix}.pause.${subjectToken(pause.key)}`;
        js.publish(subject, JSON.stringify(pause))
          // a server back without its folder lost the stream: made again, the pause told again
          .catch(async () => {
            await ensurePauseStream();
            await js.publish(subject, JSON.stringify(pause));
          })
          .catch(() => undefined);
      },
      onPause(listener) {
        // each listener reads the stream from its last pause per model: the stream is the only memory
        let feed: { stop(): void } | null = null;
        let unsubscribed = false;
        const follow = async (): Promise<void> => {
          const consumer = await js.consumers.get(pauseStream, {
            deliver_policy: DeliverPolicy.LastPerSubject,
          });
          const messages = await consumer.consume();
          feed = messages;
          pauseFeeds.add(messages);
          if (unsubscribed || closed) messages.stop();
          try {
            for await (const message of messages) {
              const pause = checkedPause(message.subject, message.data);
              if (pause !== null) listener(pause);
            }
          } finally {
            pauseFeeds.delete(messages);
          }
        };
        void (async () => {
          // a feed that ends or fails (the server lost the stream) is followed again, until unsubscribed
          while (!unsubscribed && !closed) {
            await follow().catch(() => undefined);
            if (unsubscribed || closed) return;
            await new Promise((resolve) => setTimeout(resolve, pauseFeedRetryMs));
            await ensurePauseStream().catch(() => undefined);
          }
        })();
        return () => {
          unsubscribed = true;
          feed?.stop();
        };
      },
      async close() {
        closed = true;
        for (const feed of pauseFeeds) feed.stop();
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
  refusals: ReturnType<typeof publishRefusals>,
  onMalformed: (subject: string) => void,
): AsyncGenerator<QueuedCaseDelivery> {
  const messages = await consumer.fetch({
    max_messages: max,
    expires,
    idle_heartbeat: pullHeartbeatMs,
  });
  // a refused pull brings nothing: end it now rather than at its expiry
  const stopWatching = refusals.whileWaiting(() => messages.stop());
  try {
    for await (const message of messages) {
      const jobs = queuedCasesOf(message.data);
      if (jobs === null) {
        // never delivered again: no worker could judge it
        message.term();
        onMalformed(message.subject);
        continue;
      }
      const cases = casesOfMessage(
        {
          deliveryCount: message.info.deliveryCount,
          working: () => message.working(),
          // a plain ack, not an acknowledged one: a lost ack costs a redelivery, and the judge
          // store's unique key (run, case, judge) finds the verdicts the first delivery committed
          ack: async () => {
            message.ack();
          },
          nak: (delayMs) => message.nak(delayMs),
        },
        jobs.length,
      );
      for (const [index, job] of jobs.entries()) {
        const delivery = cases[index];
        if (delivery !== undefined) yield { ...delivery, job };
      }
    }
  } catch (error) {
    if (!(error instanceof JetStreamError && error.message === 'heartbeats missed')) throw error;
  } finally {
    stopWatching();
    messages.stop();
  }
}

/** A case message's names of cases (one case, or `caseKeys` of one run), or `null` when it holds none. */
function queuedCasesOf(data: Uint8Array): QueuedCase[] | null {
  try {
    const message = JSON.parse(new TextDecoder().decode(data)) as {
      evaluationRunId?: unknown;
      caseKey?: unknown;
      caseKeys?: unknown;
    } | null;
    const evaluationRunId = message?.evaluationRunId;
    if (typeof evaluationRunId !== 'string') return null;
    if (typeof message?.caseKey === 'string')
      return [{ evaluationRunId, caseKey: message.caseKey }];
    const keys = message?.caseKeys;
    if (!Array.isArray(keys) || keys.length === 0) return null;
    if (!keys.every((key): key is string => typeof key === 'string')) return null;
    return keys.map((caseKey) => ({ evaluationRunId, caseKey }));
  } catch {
    return null;
  }
}

/** The messages the fleet's consumer lets be in flight; with no consumer yet, its workers' default cap. */
async function fleetMessagesInFlight(
  jsm: JetStreamManager,
  stream: string,
  durable: string,
): Promise<number> {
  try {
    return (await jsm.consumers.info(stream, durable)).config.max_ack_pending ?? -1;
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
    return messagesForCap(defaultJudgeMaxInFlight).maxMessages;
  }
}

/** The judge consumer: a worker's ack wait is checked against the fleet's; `arena judge --max-in-flight` sets the fleet's cap. */
async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  subject: string,
  options: JetStreamJudgeQueueOptions,
): Promise<void> {
  const ackWaitMs = options.consume?.ackWaitMs ?? defaultJudgeAckWaitMs;
  const given = [
    ...givenSetting(
      'ack_wait',
      options.consume === undefined ? undefined : ackWaitMs,
      'ARENA_JUDGE_ACK_WAIT_MS',
    ),
    ...givenSetting(
      'max_ack_pending',
      options.maxInFlight === undefined
        ? undefined
        : messagesForCap(options.maxInFlight, options.casesPerMessage).maxMessages,
      '--max-in-flight',
    ),
  ];
  const rule = {
    queue: 'judge queue',
    given,
    // --max-in-flight is the fleet's cap by design: arena judge sets it for every worker
    reconfigureFleet: options.consume === undefined || options.consume.reconfigureFleet === true,
    create: given.length > 0,
    // arena judge --max-in-flight may create it before any worker: the first worker sets the ack wait
    ...(options.consume === undefined ? { provisional: ['ack_wait' as const] } : {}),
  };
  const maxAckPending = messagesForCap(
    options.maxInFlight ?? defaultJudgeMaxInFlight,
    options.casesPerMessage,
  ).maxMessages;
  await ensureSharedConsumer(jsm, stream, { durable, subject, ackWaitMs, maxAckPending }, rule);
}
