import { isIP } from 'node:net';
import { checkServerIdentity } from 'node:tls';
import {
  type ConnectionOptions,
  credsAuthenticator,
  type NatsConnection,
  nkeyAuthenticator,
} from '@nats-io/transport-node';
import { ArenaError } from '../../domain/shared/errors.js';
import {
  type NatsCredentialLabels,
  type NatsCredentials,
  readNatsCredentials,
} from '../queue/natsCredentials.js';
import { warnOpenNatsServer } from '../queue/natsOpenServer.js';
import { redactUrl } from '../runtime/redactUrl.js';

/**
 * The nats.js connection options a `--nats` URL and credential settings stand
 * for (see `readNatsCredentials`): the server without its user part, the
 * user part or settings as user and password, token, nkey or creds
 * authenticator, TLS (`tls://`, or any TLS file) with the CA and client
 * certificate read, and replies under `_INBOX.<user>` when the user is known. nats.js ignores a URL's user part, so without this a
 * right password is an Authorization Violation.
 *
 * @example
 * ```ts
 * natsServerOptions('nats://arena:s3cret@127.0.0.1:4222');
 * // { servers: 'nats://127.0.0.1:4222', inboxPrefix: '_INBOX.arena', user: 'arena', pass: 's3cret' }
 * natsServerOptions('nats://127.0.0.1:4222', { token: 't0ken' });
 * // { servers: 'nats://127.0.0.1:4222', token: 't0ken' }
 * natsServerOptions('tls://127.0.0.1:4222', { credsFile: 'arena.creds', tlsCaFile: 'ca.pem' });
 * // { servers: 'tls://127.0.0.1:4222', authenticator: [Function], tls: { ca: '-----BEGIN…', checkServerIdentity: [Function] } }
 * ```
 */
export function natsServerOptions(
  url: string,
  credentials: NatsCredentials = {},
  labels: NatsCredentialLabels = {},
): ConnectionOptions {
  const read = readNatsCredentials(url, credentials, labels);
  const { servers, user, pass, token, nkeySeed, creds, ca, cert, key } = read;
  const userToken = natsUserToken(user);
  return {
    servers,
    // replies come back under the user's own prefix, which only that user may read
    ...(userToken !== null ? { inboxPrefix: `_INBOX.${userToken}` } : {}),
    ...(user !== undefined ? { user } : {}),
    ...(pass !== undefined ? { pass } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(nkeySeed !== undefined ? { authenticator: nkeyAuthenticator(nkeySeed) } : {}),
    ...(creds !== undefined ? { authenticator: credsAuthenticator(creds) } : {}),
    ...(read.tls
      ? {
          tls: {
            ...(ca !== undefined ? { ca } : {}),
            ...(cert !== undefined && key !== undefined ? { cert, key } : {}),
            ...serverIdentityCheck(servers),
          },
        }
      : {}),
  };
}

/**
 * A NATS user name as one subject token (each character outside letters,
 * digits, `-` and `_` becomes `_`), or `null` without a user: a connection's
 * replies come back on `_INBOX.<token>.…` and a served instance answers on
 * `arena.component.<service>.at.<token>.<instance>`, subjects an
 * authorization file can give to that user alone.
 *
 * @example
 * ```ts
 * natsUserToken('service-tank'); // 'service-tank'
 * natsUserToken('ops@lab.example'); // 'ops_lab_example'
 * natsUserToken(undefined); // null
 * ```
 */
export function natsUserToken(user: string | undefined): string | null {
  if (user === undefined || user === '') return null;
  return user.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * The user token (`natsUserToken`) a URL and its credentials connect as, or
 * `null` when arena does not know the user (no user, a token, nkey or creds).
 *
 * @example
 * ```ts
 * natsUserTokenOf('nats://worker:pw@127.0.0.1:4222'); // 'worker'
 * ```
 */
export function natsUserTokenOf(url: string, credentials: NatsCredentials = {}): string | null {
  return natsUserToken(readNatsCredentials(url, credentials).user);
}

/** nats.js checks a server at an IP address as if it were `localhost`: check the address the URL names. */
function serverIdentityCheck(servers: string): {
  checkServerIdentity?: typeof checkServerIdentity;
} {
  const host =
    /^[a-z][a-z0-9+.-]*:\/\/\[?([^\]/]*?)\]?(?::\d+)?(?:\/.*)?$/i.exec(servers)?.[1] ?? '';
  if (isIP(host) === 0) return {};
  return { checkServerIdentity: (_name, certificate) => checkServerIdentity(host, certificate) };
}

/**
 * The NATS server asks for no authentication, and the command was told to
 * require it (`--require-auth`, `ARENA_NATS_REQUIRE_AUTH=1`).
 *
 * @example
 * ```ts
 * error.message; // 'nats://127.0.0.1:4222 asks for no authentication: anyone who reaches it can publish and answer (--require-auth refuses it; docs/fleet-security.md)'
 * ```
 */
export class NatsOpenServerError extends ArenaError {
  constructor(url: string) {
    super(
      'NATS_OPEN_SERVER',
      `${openServerText(url)} (--require-auth refuses it; docs/fleet-security.md)`,
    );
  }
}

const openServerText = (url: string): string =>
  `${redactUrl(url)} asks for no authentication: anyone who reaches it can publish and answer`;

/**
 * After connecting: a server that asks for no authentication (its INFO says
 * `auth_required` false) is refused with `NatsOpenServerError` when
 * `requireAuth` is set (the connection closed), else warned about once per
 * server and process (see `onOpenNatsServer` in ports/queue/natsOpenServer.ts).
 *
 * @example
 * ```ts
 * await checkNatsAuthentication(nc, 'nats://127.0.0.1:4222', { requireAuth: true }); // throws on an open server
 * ```
 */
export async function checkNatsAuthentication(
  nc: NatsConnection,
  url: string,
  credentials: NatsCredentials = {},
): Promise<void> {
  if (nc.info?.auth_required === true) return;
  if (credentials.requireAuth === true) {
    await nc.close().catch(() => undefined);
    throw new NatsOpenServerError(url);
  }
  warnOpenNatsServer(
    redactUrl(url),
    `${openServerText(url)} (docs/fleet-security.md; --require-auth refuses it)`,
  );
}
