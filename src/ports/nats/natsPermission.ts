import type { NatsConnection } from '@nats-io/transport-node';
import { ArenaError } from '../../domain/shared/errors.js';
import { redactUrl } from '../runtime/redactUrl.js';
import { natsServerOptions } from './natsServer.js';

/**
 * The NATS server refused this connection's user a publish or subscription
 * its command needs: the `--nats` credentials are of a role that may not do
 * this (see `docs/nats/authorization.conf`).
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'NATS_PERMISSION'); // true when `error` is a NatsPermissionError
 * error.message;
 * // 'nats://viewer:***@127.0.0.1:4222 refused user viewer: Permissions Violation for Publish to "arena.runs.queued" (...)'
 * ```
 */
export class NatsPermissionError extends ArenaError {
  constructor(url: string, refusal: string) {
    const { user } = natsServerOptions(url);
    const who = user === undefined ? 'this connection' : `user ${user}`;
    super(
      'NATS_PERMISSION',
      `${redactUrl(url)} refused ${who}: ${refusal} (that role may not do this; arena's roles: docs/nats/authorization.conf)`,
    );
  }
}

/**
 * `error` as a `NatsPermissionError` when it is the server's permissions
 * violation (itself, or a request's error carrying its text), else `null`.
 *
 * @example
 * ```ts
 * try { await js.publish(subject, body); } catch (error) { throw permissionRefusal(error, url) ?? error; }
 * ```
 */
export function permissionRefusal(error: unknown, url: string): NatsPermissionError | null {
  if (!(error instanceof Error) || !/permissions violation/i.test(error.message)) return null;
  // no cause: the client's RequestError under it would read as a server out of reach (exit 3)
  return new NatsPermissionError(url, error.message);
}

/**
 * Follow the server's refusals of this connection's publishes to `subjects`:
 * a refused pull request (`$JS.API.CONSUMER.MSG.NEXT.…`) is no request that
 * fails, only a pull that never brings anything, so a worker of a role that
 * may not pull would idle for ever without it. `refused()` is the first
 * refusal seen, as a `NatsPermissionError`, else `null`; `whileWaiting(stop)`
 * calls `stop` when a refusal comes (at once if one came), to end a pull
 * that would otherwise wait out its expiry.
 *
 * @example
 * ```ts
 * const pulls = publishRefusals(nc, url, ['$JS.API.CONSUMER.MSG.NEXT.ARENA_RUNS.arena-workers']);
 * const messages = await consumer.fetch({ max_messages: 1, expires: 2000 });
 * const stopWatching = pulls.whileWaiting(() => messages.stop());
 * for await (const message of messages) ...
 * stopWatching();
 * const refusal = pulls.refused(); // NatsPermissionError: … refused user viewer: Permissions Violation for Publish to "$JS.API.CONSUMER.MSG.NEXT.ARENA_RUNS.arena-workers" (…)
 * ```
 */
export function publishRefusals(
  nc: Pick<NatsConnection, 'status'>,
  url: string,
  subjects: readonly string[],
): { refused(): NatsPermissionError | null; whileWaiting(stop: () => void): () => void } {
  let refusal: NatsPermissionError | null = null;
  const waiting = new Set<() => void>();
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type !== 'error' || refusal !== null) continue;
      const { error } = status as { error?: { operation?: unknown; subject?: unknown } };
      if (
        error instanceof Error &&
        error.name === 'PermissionViolationError' &&
        error.operation === 'publish' &&
        subjects.includes(String(error.subject))
      ) {
        refusal = new NatsPermissionError(url, error.message);
        for (const stop of waiting) stop();
      }
    }
  })().catch(() => undefined);
  return {
    refused: () => refusal,
    whileWaiting(stop) {
      if (refusal !== null) stop();
      waiting.add(stop);
      return () => waiting.delete(stop);
    },
  };
}
