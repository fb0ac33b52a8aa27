import { isIP } from 'node:net';
import { checkServerIdentity } from 'node:tls';
import {
  type ConnectionOptions,
  credsAuthenticator,
  nkeyAuthenticator,
} from '@nats-io/transport-node';
import {
  type NatsCredentialLabels,
  type NatsCredentials,
  readNatsCredentials,
} from '../queue/natsCredentials.js';

/**
 * The nats.js connection options a `--nats` URL and credential settings stand
 * for (see `readNatsCredentials`): the server without its user part, the
 * user part or settings as user and password, token, nkey or creds
 * authenticator, and TLS (`tls://`, or any TLS file) with the CA and client
 * certificate read. nats.js ignores a URL's user part, so without this a
 * right password is an Authorization Violation.
 *
 * @example
 * ```ts
 * natsServerOptions('nats://arena:s3cret@127.0.0.1:4222');
 * // { servers: 'nats://127.0.0.1:4222', user: 'arena', pass: 's3cret' }
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
  return {
    servers,
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

/** nats.js checks a server at an IP address as if it were `localhost`: check the address the URL names. */
function serverIdentityCheck(servers: string): {
  checkServerIdentity?: typeof checkServerIdentity;
} {
  const host =
    /^[a-z][a-z0-9+.-]*:\/\/\[?([^\]/]*?)\]?(?::\d+)?(?:\/.*)?$/i.exec(servers)?.[1] ?? '';
  if (isIP(host) === 0) return {};
  return { checkServerIdentity: (_name, certificate) => checkServerIdentity(host, certificate) };
}
