import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { natsConnectFailure } from '../queue/natsConnectFailure.js';
import type { NatsCredentials } from '../queue/natsCredentials.js';
import { ConsumerSettingsError, RunQueueError } from '../queue/runQueue.js';
import { redactUrl } from '../runtime/redactUrl.js';
import { type NatsPermissionError, permissionRefusal } from './natsPermission.js';
import { checkNatsAuthentication, natsServerOptions } from './natsServer.js';

/** Milliseconds as the nanoseconds JetStream's configs count in. */
export const nanos = (ms: number): number => Math.round(ms * 1_000_000);

/**
 * Connect to a NATS server for a queue: a server restart is an outage to ride
 * out (reconnect for ever), an unreachable or refusing server at the start a
 * `RunQueueError` saying what failed, a bad credential setting a `NatsCredentialsError`.
 *
 * @example
 * ```ts
 * const nc = await connectForQueue('nats://127.0.0.1:4222', 'arena worker');
 * ```
 */
export async function connectForQueue(
  url: string,
  name: string,
  credentials?: NatsCredentials,
): Promise<NatsConnection> {
  // a bad setting (a missing file) is thrown as it is, before any connection
  const server = natsServerOptions(url, credentials);
  let nc: NatsConnection;
  try {
    nc = await connect({
      ...server,
      name,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      // a publish ack or pull per case: an Error with its stack made for each one costs more than the call
      noAsyncTraces: true,
    });
  } catch (error) {
    throw new RunQueueError(natsConnectFailure(url, error), { cause: error });
  }
  await checkNatsAuthentication(nc, url, credentials);
  return nc;
}

/**
 * Create a stream unless it exists (as it is: its settings are the first
 * creator's); two processes creating it at once both go on.
 *
 * @example
 * ```ts
 * await ensureStream(jsm, { name: 'ARENA_RUNS', subjects: ['arena.runs.queued'], retention: RetentionPolicy.Workqueue });
 * ```
 */
export async function ensureStream(
  jsm: JetStreamManager,
  config: Partial<StreamConfig> & { readonly name: string },
): Promise<void> {
  try {
    await jsm.streams.info(config.name);
    return;
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
  }
  try {
    await jsm.streams.add(config);
  } catch (error) {
    // another process created it at the same moment
    if (!(error instanceof JetStreamApiError)) throw error;
    await jsm.streams.info(config.name);
  }
}

/**
 * {@link ensureStream} for a queue's work-queue stream: on file, a message kept
 * until acked, a message id published again within `duplicateWindowMs`
 * (default 10 minutes) dropped as a duplicate.
 *
 * @example
 * ```ts
 * await ensureWorkQueueStream(jsm, 'ARENA_RUNS', ['arena.runs.queued'], options.duplicateWindowMs);
 * ```
 */
export async function ensureWorkQueueStream(
  jsm: JetStreamManager,
  name: string,
  subjects: string[],
  duplicateWindowMs?: number,
): Promise<void> {
  await ensureStream(jsm, {
    name,
    subjects,
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    duplicate_window: nanos(duplicateWindowMs ?? 10 * 60_000),
  });
}

/**
 * What to throw when setting up a queue failed, after closing its connection:
 * a `RunQueueError` or `ConsumerSettingsError` as it is, the server's refusal
 * of this user as a `NatsPermissionError`, anything else as a `RunQueueError`
 * that names the queue, the server and the likely cause.
 *
 * @example
 * ```ts
 * try { ... } catch (error) { throw await queueSetupError(nc, 'run queue', url, error); }
 * // RunQueueError: cannot set up the run queue on nats://127.0.0.1:4222 (JetStream enabled? start nats-server with -js): ...
 * ```
 */
export async function queueSetupError(
  nc: NatsConnection,
  queue: string,
  url: string,
  error: unknown,
): Promise<RunQueueError | ConsumerSettingsError | NatsPermissionError> {
  await nc.close().catch(() => undefined);
  if (error instanceof RunQueueError || error instanceof ConsumerSettingsError) return error;
  const refused = permissionRefusal(error, url);
  if (refused !== null) return refused;
  return new RunQueueError(
    `cannot set up the ${queue} on ${redactUrl(url)} (JetStream enabled? start nats-server with -js): ${messageOf(error)}`,
    { cause: error },
  );
}

/**
 * Whether `error` is JetStream's answer with this code.
 *
 * @example
 * ```ts
 * isApiError(error, JetStreamApiCodes.ConsumerNotFound); // true when the consumer is not there
 * ```
 */
export function isApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

/**
 * An error's message, or the thrown value as text.
 *
 * @example
 * ```ts
 * messageOf(new Error('no route')); // 'no route'
 * ```
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
