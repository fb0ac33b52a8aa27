import { ArenaError } from '../../domain/shared/errors.js';
import { defaultJudgeAckWaitMs, type JudgeQueue } from '../../ports/queue/judgeQueue.js';
import { natsConnectFailure } from '../../ports/queue/natsConnectFailure.js';
import {
  openJudgeQueue as openJudgeQueueAt,
  openRemoteComponents as openRemoteComponentsAt,
  openRunQueue as openRunQueueAt,
} from '../../ports/queue/queueUri.js';
import { type RunQueue, RunQueueError } from '../../ports/queue/runQueue.js';
import type { RemoteComponentHost } from '../../ports/remote/remoteComponent.js';
import type { Logger } from '../../ports/runtime/logger.js';
import { millisecondsFromEnvironment } from '../environmentMilliseconds.js';
import { CliError, ExitCode } from '../errors.js';
import type { NatsTarget } from './natsTarget.js';

/**
 * Open the JetStream run queue (see `openRunQueue` in ports/queue/queueUri.ts): a
 * command that never names `--nats` loads nothing of it. An unreachable
 * server is a `CliError` with exit code 1.
 *
 * @example
 * ```ts
 * const queue = await openRunQueue(natsTargetOf(options), { ackWaitMs: 22_500 });
 * ```
 */
export async function openRunQueue(
  { url, credentials }: NatsTarget,
  consume?: {
    readonly ackWaitMs: number;
    readonly maxInProgress?: number;
    readonly reconfigureFleet?: boolean;
  },
): Promise<RunQueue> {
  try {
    return await openRunQueueAt(url, {
      credentials,
      name: consume === undefined ? 'arena submit' : 'arena worker',
      ...(consume !== undefined ? { consume } : {}),
    });
  } catch (error) {
    throw queueOpenError(error);
  }
}

/** A worker at odds with a fleet's consumer is a setting to fix (exit 2), a server out of reach exit 1. */
function queueOpenError(error: unknown): unknown {
  if (ArenaError.is(error, 'CONSUMER_SETTINGS')) return new CliError(error.message);
  if (error instanceof RunQueueError) return new CliError(error.message, ExitCode.failed);
  return error;
}

/**
 * Open the JetStream judge queue (see `openJudgeQueue` in ports/queue/queueUri.ts).
 * An unreachable server is a `CliError` with exit code 1, a worker ack wait
 * at odds with the fleet's consumer one with exit code 2.
 *
 * @example
 * ```ts
 * const queue = await openJudgeQueue(natsTargetOf(options), { maxInFlight: 128 });
 * ```
 */
export async function openJudgeQueue(
  { url, credentials }: NatsTarget,
  options: {
    readonly consume?: { readonly ackWaitMs: number; readonly reconfigureFleet?: boolean };
    readonly maxInFlight?: number;
    /** Warned when a control message is dropped. */
    readonly logger?: Logger;
  } = {},
): Promise<JudgeQueue> {
  try {
    return await openJudgeQueueAt(url, {
      credentials,
      name: options.consume === undefined ? 'arena judge' : 'arena worker (judge)',
      ...options,
    });
  } catch (error) {
    throw queueOpenError(error);
  }
}

/** `ARENA_JUDGE_ACK_WAIT_MS`: how long a judge job may go unacked, kept in progress, before another worker gets it (default 30 s). */
export function judgeAckWaitFromEnvironment(): number {
  return millisecondsFromEnvironment('ARENA_JUDGE_ACK_WAIT_MS', 1000) ?? defaultJudgeAckWaitMs;
}

/** Connect for remote components, loading the NATS client only now; an unreachable server exits 1. */
export async function openRemoteComponents({
  url,
  credentials,
  trustedKeys,
}: NatsTarget): Promise<RemoteComponentHost> {
  const timing = remoteTimingFromEnvironment();
  try {
    return await openRemoteComponentsAt(url, {
      ...timing,
      credentials,
      ...(trustedKeys !== undefined ? { trustedKeys } : {}),
    });
  } catch (error) {
    throw natsOutOfReach(url, error);
  }
}

/** An arena error as it is; any other failure to connect as one line saying what failed at the server (its secret written ***), exit 1. */
export function natsOutOfReach(url: string, error: unknown): Error {
  if (ArenaError.is(error)) return error;
  return new CliError(natsConnectFailure(url, error), ExitCode.failed, { cause: error });
}

/** `ARENA_REMOTE_TIMEOUT_MS`: how long one remote request waits for its reply (default 10 s). */
function remoteTimingFromEnvironment(): { timeoutMs?: number } {
  const timeoutMs = millisecondsFromEnvironment('ARENA_REMOTE_TIMEOUT_MS', 1);
  return timeoutMs === undefined ? {} : { timeoutMs };
}
