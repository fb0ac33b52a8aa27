import type { Logger } from '../runtime/logger.js';
import type { NatsConnectOptions } from './natsCredentials.js';
import type { QueueDelivery } from './runQueue.js';

/**
 * The judge-queue port: cases of evaluation runs, queued by `arena judge
 * --nats`, judged by `arena worker`s. Delivery is at least once: a case that
 * is neither acked nor kept in progress comes back (to any worker); the judge
 * store's one-verdict-per-case makes a second delivery harmless. Beside the
 * queue, the fleet's signals: a cancelled run and a model paused by a 429.
 */

/**
 * One case of one evaluation run, by name only: a worker judges the case the
 * judge store holds under this key, never a copy from the bus, so a forged
 * message can name a stored case (judged once anyway) but not add one.
 */
export interface QueuedCase {
  /** The evaluation run in the judge store. */
  readonly evaluationRunId: string;
  /** The case's key in the store (`caseKeyOf`). */
  readonly caseKey: string;
}

/** One delivery of a case to a worker: `ack` it once the case has its verdict (or needs none). */
export interface QueuedCaseDelivery extends QueueDelivery {
  readonly job: QueuedCase;
}

/** What `submit` did with a case. */
export interface JudgeSubmitReceipt {
  /** The queue already held this case of this run (a duplicate line): nothing was added. */
  readonly duplicate: boolean;
}

/** What `submitCases` did with a run's cases. */
export interface JudgeBatchReceipt {
  /** Cases in messages the queue already held (a repeated publish): nothing was added for them. */
  readonly duplicates: number;
}

/**
 * A model whose provider answered 429: every worker waits until `untilMs`
 * (epoch ms), within its judge's back-off cap (see `pauseEndMs`).
 */
export interface ModelPause {
  /** The endpoint and model paused (see `pauseKeyOf`). */
  readonly key: string;
  readonly untilMs: number;
}

/** The most a queue's server takes in one message, and what a case weighs as one. */
export interface JudgeMessageLimit {
  /** The server's limit in bytes (NATS: `max_payload` of the server's info). */
  readonly maxBytes: number;
  /** The bytes `submit` sends for this case: its body and its headers. */
  bytesOf(job: QueuedCase): number;
}

/** A queue of judge jobs with at-least-once delivery, and the fleet's signals. */
export interface JudgeQueue {
  /** How large a case may be; absent when the queue has no limit of its own. */
  readonly messageLimit?: JudgeMessageLimit;
  /** Queue one case; a case of the same run and key queued before is dropped as a duplicate. */
  submit(job: QueuedCase): Promise<JudgeSubmitReceipt>;
  /** The most cases `submitCases` puts in one message; absent when each case is its own. */
  readonly casesPerMessage?: number;
  /**
   * Queue consecutive cases of one run, `casesPerMessage` a message (fewer
   * when the server's message limit says so); a message of the same cases
   * queued before is dropped as a duplicate. Its deliveries are one per case,
   * as `submit`'s are. Absent, each case is submitted on its own.
   */
  submitCases?(jobs: readonly QueuedCase[]): Promise<JudgeBatchReceipt>;
  /** Up to `max` deliveries, as they come, within about `waitMs`. */
  take(max: number, waitMs: number): AsyncIterable<QueuedCaseDelivery>;
  /**
   * The case keys of a run the queue holds now (queued, or delivered and not
   * yet acked), so a requeue publishes only what is missing.
   */
  queuedCaseKeys?(evaluationRunId: string): Promise<ReadonlySet<string>>;
  /** Drop every queued case of a run (it was cancelled). */
  purge(evaluationRunId: string): Promise<void>;
  /** Tell every worker that a run was cancelled: they cancel its judgements in flight. */
  announceCancel(evaluationRunId: string): void;
  onCancel(listener: (evaluationRunId: string) => void): () => void;
  /**
   * Tell whoever follows a run that it changed (verdicts recorded, ended,
   * cancelled): a hint to read it from the store, never believed on its own.
   */
  announceStatus?(evaluationRunId: string): void;
  /** Hear a run's status hints; absent or refused, the follower polls the store. */
  onStatus?(evaluationRunId: string, listener: () => void): () => void;
  /** Tell every worker to pause a model. */
  announcePause(pause: ModelPause): void;
  onPause(listener: (pause: ModelPause) => void): () => void;
  close(): Promise<void>;
}

/** Where the judge queue lives on its server, and how it delivers: every setting has a default. */
export interface JudgeQueueOptions extends NatsConnectOptions {
  /** The work-queue stream; default `ARENA_JUDGE`. */
  readonly stream?: string;
  /** Subjects start with this; default `arena.judge`. */
  readonly prefix?: string;
  /** Take cases off the queue (a worker); without it the queue only submits. */
  readonly consume?: {
    /** How long a delivery may go without `working()` or an ack before it is delivered again. */
    readonly ackWaitMs?: number;
    /**
     * Change the shared consumer's ack wait to this one when it has another
     * (a fleet setting); without it, another is refused with `ConsumerSettingsError`.
     */
    readonly reconfigureFleet?: boolean;
  };
  /**
   * The fleet-wide cap on judgements in flight: a message of cases is in
   * flight whole, so the shared consumer's `max_ack_pending` is the cap over
   * the cases a message holds (`messagesForCap`); kept as set when omitted
   * (16 messages of 8 cases when first created).
   */
  readonly maxInFlight?: number;
  /**
   * The most cases of one run a message carries (`defaultCasesPerMessage`,
   * fewer under a smaller `maxInFlight`); a worker pulls as many messages as
   * its free slots hold this many cases.
   */
  readonly casesPerMessage?: number;
  /** How long JetStream remembers a case to drop a duplicate; default 10 minutes. */
  readonly duplicateWindowMs?: number;
  /** Name of this client as the server shows it. */
  readonly name?: string;
  /** Where a dropped control message (a malformed pause or cancel) is warned about; default silent. */
  readonly logger?: Logger;
}

/**
 * How long a queue keeps a model pause for a worker that starts later.
 *
 * @example
 * ```ts
 * modelPauseMaxAgeMs; // 3600000: no retry-after is worth waiting an hour for
 * ```
 */
export const modelPauseMaxAgeMs = 60 * 60_000;

/**
 * How long a judge delivery stays unacked before it is delivered again, unless told otherwise.
 *
 * @example
 * ```ts
 * defaultJudgeAckWaitMs; // 30000: ARENA_JUDGE_ACK_WAIT_MS overrides it for arena worker
 * ```
 */
export const defaultJudgeAckWaitMs = 30_000;

/**
 * The fleet-wide cap on judgements in flight when the consumer is first created.
 *
 * @example
 * ```ts
 * defaultJudgeMaxInFlight; // 128: arena judge --max-in-flight N changes it for the fleet
 * ```
 */
export const defaultJudgeMaxInFlight = 128;
