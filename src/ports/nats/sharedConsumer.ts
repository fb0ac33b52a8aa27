import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { type ConsumerSettingDifference, ConsumerSettingsError } from '../queue/runQueue.js';
import { isApiError, nanos } from './jetStreamSetup.js';

/** One setting a process brings to a queue's shared consumer, and where its value came from. */
export interface GivenConsumerSetting {
  readonly setting: ConsumerSettingDifference['setting'];
  /** `ack_wait` in milliseconds; `max_ack_pending` as a count. */
  readonly value: number;
  /** What set it, as the refusal names it (`1.5 x ARENA_LEASE_TTL_MS`, `--max-in-progress`). */
  readonly source: string;
}

/**
 * A setting given only when it has a value: `[]` for `undefined`.
 *
 * @example
 * ```ts
 * givenSetting('max_ack_pending', undefined, '--max-in-progress'); // []
 * ```
 */
export const givenSetting = (
  setting: GivenConsumerSetting['setting'],
  value: number | undefined,
  source: string,
): GivenConsumerSetting[] => (value === undefined ? [] : [{ setting, value, source }]);

/** A queue's durable pull consumer as it is created: explicit acks, every message, no delivery cap. */
export interface SharedConsumerShape {
  readonly durable: string;
  readonly subject: string;
  readonly ackWaitMs: number;
  readonly maxAckPending: number;
}

/** How {@link ensureSharedConsumer} treats a queue's consumer. */
export interface SharedConsumerRule {
  /** The queue as messages name it: `run queue`, `judge queue`. */
  readonly queue: string;
  /** The settings this process brings; the others are the fleet's as they are. */
  readonly given: readonly GivenConsumerSetting[];
  /** Change the fleet's settings to the given ones where they differ (else refused). */
  readonly reconfigureFleet: boolean;
  /** Create the consumer (with `config`) when it is not there; default true. */
  readonly create?: boolean;
  /**
   * Settings of `config` nobody chose (a submitter creating the consumer
   * before any worker): marked on the consumer, so the first process that
   * gives one sets it instead of being refused.
   */
  readonly provisional?: readonly GivenConsumerSetting['setting'][];
}

/** The consumer description that marks settings as not yet chosen, e.g. `arena provisional: ack_wait`. */
const provisionalMark = 'arena provisional:';

const provisionalOf = (description: string | undefined): string[] =>
  description?.startsWith(provisionalMark) === true
    ? description.slice(provisionalMark.length).trim().split(/\s+/)
    : [];

/** A given setting as JetStream's consumer config counts it (`ack_wait` in nanoseconds). */
const configValue = (given: GivenConsumerSetting): number =>
  given.setting === 'ack_wait' ? Math.round(given.value * 1_000_000) : given.value;

/**
 * Make sure a queue's durable consumer, shared by every worker of the fleet,
 * exists; one already there keeps its settings, the fleet's. A given setting
 * that differs is refused with `ConsumerSettingsError` (naming both values),
 * unless `reconfigureFleet` asks to change it for every worker: one worker's
 * environment never rewrites how the others' work is redelivered.
 *
 * @example
 * ```ts
 * const shape = { durable: 'arena-judges', subject: 'arena.judge.cases.>', ackWaitMs: 2000, maxAckPending: 128 };
 * await ensureSharedConsumer(jsm, 'ARENA_JUDGE', shape, {
 *   queue: 'judge queue',
 *   given: [{ setting: 'ack_wait', value: 2000, source: 'ARENA_JUDGE_ACK_WAIT_MS' }],
 *   reconfigureFleet: false,
 * });
 * // ConsumerSettingsError: the judge queue's consumer 'arena-judges' has ack_wait 30000 ms (the fleet's); ...
 * ```
 */
export async function ensureSharedConsumer(
  jsm: JetStreamManager,
  stream: string,
  shape: SharedConsumerShape,
  rule: SharedConsumerRule,
): Promise<void> {
  const { durable } = shape;
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(shape.ackWaitMs),
    max_ack_pending: shape.maxAckPending,
    max_deliver: -1,
    filter_subject: shape.subject,
  };
  try {
    const { config: fleet } = await jsm.consumers.info(stream, durable);
    const differing = rule.given.filter((each) => fleet[each.setting] !== configValue(each));
    const provisional = provisionalOf(fleet.description);
    // a setting nobody chose yet is this process's to choose
    const refused = differing.filter((each) => !provisional.includes(each.setting));
    const choosing = rule.given.some((each) => provisional.includes(each.setting));
    if (differing.length === 0 && !choosing) return;
    if (refused.length > 0 && !rule.reconfigureFleet) {
      const differences = refused.map((each) => ({
        setting: each.setting,
        fleet:
          each.setting === 'ack_wait' ? (fleet.ack_wait ?? 0) / 1e6 : (fleet.max_ack_pending ?? -1),
        worker: each.value,
        source: each.source,
      }));
      throw new ConsumerSettingsError(durable, differences, rule.queue);
    }
    const left = provisional.filter(
      (setting) => !rule.given.some((each) => each.setting === setting),
    );
    await jsm.consumers.update(stream, durable, {
      ...Object.fromEntries(differing.map((each) => [each.setting, configValue(each)])),
      ...(provisional.length > 0
        ? { description: left.length > 0 ? `${provisionalMark} ${left.join(' ')}` : '' }
        : {}),
    });
    return;
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
  }
  if (rule.create === false) return;
  const provisional = rule.provisional ?? [];
  try {
    await jsm.consumers.add(stream, {
      ...config,
      ...(provisional.length > 0
        ? { description: `${provisionalMark} ${provisional.join(' ')}` }
        : {}),
    });
  } catch (error) {
    // another process created it at the same moment: its settings are checked as any fleet's
    if (!(error instanceof JetStreamApiError)) throw error;
    await ensureSharedConsumer(jsm, stream, shape, { ...rule, create: false });
  }
}
