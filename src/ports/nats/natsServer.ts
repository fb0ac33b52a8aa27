import type { ConnectionOptions } from '@nats-io/transport-node';

/**
 * The connection options a `--nats` URL stands for: the server without its
 * user part, and the credentials the user part carried as the client takes
 * them (`user:password@` as user and password, a lone `token@` as a token).
 * nats.js ignores a URL's user part, so without this a right password is an
 * Authorization Violation.
 *
 * @example
 * ```ts
 * natsServerOptions('nats://arena:s3cret@127.0.0.1:4222');
 * // { servers: 'nats://127.0.0.1:4222', user: 'arena', pass: 's3cret' }
 * natsServerOptions('nats://t0ken@127.0.0.1:4222');
 * // { servers: 'nats://127.0.0.1:4222', token: 't0ken' }
 * ```
 */
export function natsServerOptions(url: string): ConnectionOptions {
  const userPart = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@(.*)$/i.exec(url);
  if (userPart === null) return { servers: url };
  const [, scheme, user, rest] = userPart as unknown as [string, string, string, string];
  const servers = `${scheme}${rest}`;
  const colon = user.indexOf(':');
  if (colon === -1) return { servers, token: decodeURIComponent(user) };
  return {
    servers,
    user: decodeURIComponent(user.slice(0, colon)),
    pass: decodeURIComponent(user.slice(colon + 1)),
  };
}
