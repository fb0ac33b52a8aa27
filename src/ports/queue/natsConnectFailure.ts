import { redactUrl } from '../runtime/redactUrl.js';

/** Node's codes for a server certificate that does not chain to a trusted CA or does not name the host. */
const UNTRUSTED_CERTIFICATE = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * One line saying why a connection to the NATS server at `url` failed at the
 * start, the URL's secret written `***`: the credentials refused, the
 * server's certificate untrusted, TLS failed or not offered, no answer, or
 * the server out of reach. Never a secret, never a stack.
 *
 * @example
 * ```ts
 * natsConnectFailure('nats://arena:s3cret@127.0.0.1:4222', Object.assign(new Error('Authorization Violation'), { name: 'AuthorizationError' }));
 * // "the NATS server at nats://arena:***@127.0.0.1:4222 refused the credentials (Authorization Violation)"
 * natsConnectFailure('nats://127.0.0.1:1', new Error('connection refused'));
 * // 'cannot reach the NATS server at nats://127.0.0.1:1: connection refused'
 * ```
 */
export function natsConnectFailure(url: string, error: unknown): string {
  const at = redactUrl(url);
  const { name, code, message } = fieldsOf(error);
  if (name === 'AuthorizationError' || /authorization violation/i.test(message)) {
    return `the NATS server at ${at} refused the credentials (${message})`;
  }
  if (UNTRUSTED_CERTIFICATE.has(code)) {
    return `the NATS server at ${at} has a certificate arena does not trust (${message}): name the CA that signed it as the TLS CA file`;
  }
  if (code.startsWith('ERR_SSL_') || /certificate/i.test(message)) {
    return `TLS with the NATS server at ${at} failed: it refused the client certificate or the handshake (${message})`;
  }
  if (/does not support 'tls'/.test(message)) {
    return `the NATS server at ${at} does not offer TLS (a tls:// URL or a TLS file asks for it)`;
  }
  if (name === 'TimeoutError') {
    return `the NATS server at ${at} did not answer in time (a server with tls { verify: true } closes the connection of a client without a certificate it trusts)`;
  }
  return `cannot reach the NATS server at ${at}: ${message}`;
}

function fieldsOf(error: unknown): { name: string; code: string; message: string } {
  if (!(error instanceof Error)) return { name: '', code: '', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, code: typeof code === 'string' ? code : '', message: error.message };
}
