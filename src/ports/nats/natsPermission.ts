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
