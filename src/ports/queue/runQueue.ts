import { ArenaError } from '../../domain/shared/errors.js';
import { arenaCommand } from '../runtime/arenaCommand.js';
import { redactUrl } from '../runtime/redactUrl.js';
import type { NatsConnectOptions } from './natsCredentials.js';
import type { StatusHintBus } from './statusHints.js';

/**
 * The run-queue port: runs submitted by `arena submit`, taken by `arena
 * worker`. Delivery is at least once: a message that is neither acked nor
 * kept in progress comes back (to any worker); the run store's lease and
 * exact resume make a second delivery harmless.
 */

/** What `submit` did with a run id. */
export interface SubmitReceipt {
  /** The queue already held a message of this run id (a duplicate submit): nothing was added. */
  readonly duplicate: boolean;
}

/** One delivery of a queued message to a worker (at least once: it may come again). */
export interface QueueDelivery {
  /** 1 on the first delivery, more on each redelivery. */
  readonly deliveryCount: number;
  /** Keep the message in progress: call it more often than the queue's ack wait. */
  working(): void;
  /** Its work is done (or needs doing no more): remove the message for good. */
  ack(): Promise<void>;
  /** Give the message back, to be delivered again after `delayMs` (default at once). */
  nak(delayMs?: number): void;
}

/** One delivery of a queued run to a worker: `ack` it once the run has ended (or needs no work). */
export interface RunDelivery extends QueueDelivery {
  readonly runId: string;
}

/**
 * A queue of run ids with at-least-once delivery. Its status hints
 * (`announceStatus`, `onStatus`) tell a run's followers (`arena submit
 * --wait`, a sweep waiting at a rung) that the run moved, held or ended.
 */
export interface RunQueue extends StatusHintBus {
  /**
   * Queue a run id; a run id queued before and not yet acked is dropped as a
   * duplicate. `messageId` (default the run id) is what duplicates are told
   * apart by: a run queued again on purpose (a sweep's trial released past
   * its rung) names a new one.
   */
  submit(runId: string, options?: { readonly messageId?: string }): Promise<SubmitReceipt>;
  /** The next delivery, or `null` when none came within `waitMs`. */
  next(options: { readonly waitMs: number }): Promise<RunDelivery | null>;
  /**
   * The run ids the queue holds now (queued, or delivered and not yet acked),
   * so a requeue publishes only what is missing, whatever the duplicate window.
   */
  queuedRunIds?(): Promise<ReadonlySet<string>>;
  close(): Promise<void>;
}

/** Where the run queue lives on its server, and how it delivers: every setting has a default. */
export interface RunQueueOptions extends NatsConnectOptions {
  /** The work-queue stream; default `ARENA_RUNS`. */
  readonly stream?: string;
  /** The subject runs are published on; default `arena.runs.queued`. */
  readonly subject?: string;
  /** Status hints go to `<statusSubject>.<run id as hex>`; default `arena.runs.status`. */
  readonly statusSubject?: string;
  /** The durable pull consumer all workers share; default `arena-workers`. */
  readonly consumer?: string;
  /**
   * Take runs off the queue (a worker); without it the queue only submits
   * and never touches the shared consumer's settings.
   */
  readonly consume?: {
    /** How long a delivery may go without `working()` or an ack before it is delivered again. */
    readonly ackWaitMs?: number;
    /** At most this many runs in progress across all workers (`max_ack_pending`); kept as set when omitted. */
    readonly maxInProgress?: number;
    /**
     * Change the shared consumer's ack wait and in-progress cap to these when
     * it has others: a fleet setting, for every worker. Without it, a
     * consumer with other settings is refused with `ConsumerSettingsError`,
     * so one worker never rewrites the fleet's behind the others' backs.
     */
    readonly reconfigureFleet?: boolean;
  };
  /** How long JetStream remembers a run id to drop a duplicate submit; default 10 minutes. */
  readonly duplicateWindowMs?: number;
  /** Name of this client as the server shows it. */
  readonly name?: string;
}

/**
 * How long a delivery stays unacked before it is delivered again, unless told otherwise.
 *
 * @example
 * ```ts
 * defaultAckWaitMs; // 30000: arena worker sets ackWaitFor(its lease) instead
 * ```
 */
export const defaultAckWaitMs = 30_000;

/**
 * A queue that cannot be reached or set up: the cause names why.
 *
 * @example
 * ```ts
 * await openRunQueue('nats://127.0.0.1:1');
 * // RunQueueError: cannot reach the NATS server at nats://127.0.0.1:1: …
 * ```
 */
export class RunQueueError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RUN_QUEUE', message, options);
  }
}

/** One setting of the shared consumer that a worker would change: the fleet's value and the worker's. */
export interface ConsumerSettingDifference {
  readonly setting: 'ack_wait' | 'max_ack_pending';
  /** `ack_wait` in milliseconds; `max_ack_pending` as a count. */
  readonly fleet: number;
  readonly worker: number;
  /** What set the worker's value (`1.5 x ARENA_LEASE_TTL_MS`, `ARENA_JUDGE_ACK_WAIT_MS`, `--max-in-progress`). */
  readonly source?: string;
}

/**
 * A worker whose ack wait or in-progress cap differs from a queue's shared
 * consumer's, which every worker of the fleet works by: refused, unless it
 * was started to change the fleet's setting.
 *
 * @example
 * ```ts
 * // ConsumerSettingsError: the run queue's consumer 'arena-workers' has ack_wait 22500 ms (the fleet's);
 * // this worker's is 3000 ms (1.5 x ARENA_LEASE_TTL_MS): start it with the fleet's setting, or change
 * // the fleet's with arena worker --reconfigure-fleet and restart the other workers with the same
 * error instanceof ConsumerSettingsError && error.code; // 'CONSUMER_SETTINGS'
 * ```
 */
export class ConsumerSettingsError extends ArenaError {
  readonly consumer: string;
  readonly differences: readonly ConsumerSettingDifference[];
  /** The queue whose consumer it is: `run queue` or `judge queue`. */
  readonly queue: string;
  constructor(
    consumer: string,
    differences: readonly ConsumerSettingDifference[],
    queue = 'run queue',
  ) {
    const told = differences.map((each) =>
      each.setting === 'ack_wait'
        ? [
            `ack_wait ${each.fleet} ms`,
            `${each.worker} ms (${each.source ?? '1.5 x ARENA_LEASE_TTL_MS'})`,
          ]
        : [
            `max_ack_pending ${each.fleet}`,
            `${each.worker} (${each.source ?? '--max-in-progress'})`,
          ],
    );
    super(
      'CONSUMER_SETTINGS',
      `the ${queue}'s consumer '${consumer}' has ${told.map(([fleet]) => fleet).join(' and ')} (the fleet's); this worker's ${told.length > 1 ? 'are' : 'is'} ${told.map(([, worker]) => worker).join(' and ')}: start it with the fleet's setting, or change the fleet's with ${arenaCommand('worker --reconfigure-fleet')} and restart the other workers with the same`,
    );
    this.consumer = consumer;
    this.differences = differences;
    this.queue = queue;
  }
}

/**
 * A `--nats` value (or queue URI) that is not a NATS URL.
 *
 * @example
 * ```ts
 * parseNatsUrl('postgres://db');
 * // NatsUrlError: --nats must be a NATS URL like nats://127.0.0.1:4222 (or set ARENA_NATS), got 'postgres://db'
 * ```
 */
export class NatsUrlError extends ArenaError {
  constructor(url: string) {
    super(
      'NATS_URL',
      `--nats must be a NATS URL like nats://127.0.0.1:4222 (or set ARENA_NATS), got '${redactUrl(url)}'`,
    );
  }
}

/**
 * Check a `--nats` value: `nats://host:port` (or `host:port`, as NATS clients take it).
 *
 * @example
 * ```ts
 * parseNatsUrl('nats://127.0.0.1:4222'); // 'nats://127.0.0.1:4222'
 * parseNatsUrl('postgres://db'); // NatsUrlError: --nats must be a NATS URL like nats://127.0.0.1:4222 ...
 * ```
 */
export function parseNatsUrl(url: string): string {
  const withScheme = /^[a-z]+:\/\//i.test(url) ? url : `nats://${url}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    throw new NatsUrlError(url);
  }
  if (!['nats:', 'tls:'].includes(parsed.protocol) || parsed.hostname === '') {
    throw new NatsUrlError(url);
  }
  return withScheme;
}

/** What an in-process queue holds of one message. */
interface Held {
  readonly runId: string;
  deliveries: number;
  /** When it may be delivered (again), in ms since the epoch. */
  visibleAt: number;
  /** Which delivery currently holds it, or 0 when none does. */
  heldBy: number;
}

/**
 * A run queue inside one process: the default when no `--nats` is given, and
 * what tests use for the worker loop without a server. Same rules as the
 * JetStream adapter: a duplicate run id is dropped, an unacked delivery comes
 * back after `ackWaitMs`, `nak` hands a message back, a status hint reaches
 * the run's listeners.
 *
 * @example
 * ```ts
 * const queue = createInProcessRunQueue({ ackWaitMs: 1000 });
 * await queue.submit('grid-demo-20261201T090000-3fa2'); // { duplicate: false }
 * const delivery = await queue.next({ waitMs: 100 });
 * await delivery?.ack();
 * ```
 */
export function createInProcessRunQueue(
  options: { readonly ackWaitMs?: number; readonly now?: () => number } = {},
): RunQueue {
  const ackWaitMs = options.ackWaitMs ?? defaultAckWaitMs;
  const now = options.now ?? Date.now;
  const messages = new Map<string, Held>();
  const statusListeners = new Map<string, Set<() => void>>();
  let deliverySerial = 0;
  let closed = false;

  const take = (): RunDelivery | null => {
    const at = now();
    for (const held of messages.values()) {
      if (held.visibleAt > at) continue;
      const serial = ++deliverySerial;
      held.deliveries += 1;
      held.heldBy = serial;
      held.visibleAt = at + ackWaitMs;
      // a stale delivery (the message came back meanwhile) no longer acts on it
      const current = () => messages.get(held.runId) === held && held.heldBy === serial;
      return {
        runId: held.runId,
        deliveryCount: held.deliveries,
        working: () => {
          if (current()) held.visibleAt = now() + ackWaitMs;
        },
        ack: async () => {
          if (messages.get(held.runId) === held) messages.delete(held.runId);
        },
        nak: (delayMs = 0) => {
          if (!current()) return;
          held.heldBy = 0;
          held.visibleAt = now() + delayMs;
        },
      };
    }
    return null;
  };

  return {
    async submit(runId) {
      if (closed) throw new RunQueueError('the run queue is closed');
      if (messages.has(runId)) return { duplicate: true };
      messages.set(runId, { runId, deliveries: 0, visibleAt: now(), heldBy: 0 });
      return { duplicate: false };
    },
    async next({ waitMs }) {
      const until = now() + waitMs;
      for (;;) {
        if (closed) return null;
        const delivery = take();
        if (delivery !== null || now() >= until) return delivery;
        await new Promise((resolve) => setTimeout(resolve, Math.min(20, until - now())));
      }
    },
    async queuedRunIds() {
      return new Set(messages.keys());
    },
    announceStatus(runId) {
      for (const listener of [...(statusListeners.get(runId) ?? [])]) listener();
    },
    onStatus(runId, listener) {
      const listeners = statusListeners.get(runId) ?? new Set();
      statusListeners.set(runId, listeners.add(listener));
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
    },
  };
}
