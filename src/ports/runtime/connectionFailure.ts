/** Resolver codes: the host name did not resolve. */
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);

/** Certificate and handshake codes that OpenSSL and Node use without an `ERR_SSL_`/`ERR_TLS_` prefix. */
const TLS_CODES = new Set([
  'EPROTO',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'HOSTNAME_MISMATCH',
]);

/** A system or library error code, e.g. `ECONNREFUSED`, `ERR_SSL_WRONG_VERSION_NUMBER`. */
const ERROR_CODE = /^[A-Z][A-Z0-9_]+$/;

/** What kind of failure an error code is, in words a user reads. */
function failureKind(code: string): string {
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (DNS_CODES.has(code)) return 'DNS lookup failed';
  if (
    TLS_CODES.has(code) ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('ERR_TLS_') ||
    code.startsWith('CERT_')
  ) {
    return 'TLS handshake failed';
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') {
    return 'connection reset';
  }
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'connect timed out';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
  return 'connection failed';
}

/** The errors inside `error`: its `cause`, and an AggregateError's `errors` (happy eyeballs). */
function innerErrors(error: object): unknown[] {
  const inner: unknown[] = [];
  if ('cause' in error && error.cause !== undefined) inner.push(error.cause);
  if ('errors' in error && Array.isArray(error.errors)) inner.push(...error.errors);
  return inner;
}

/** The first error in the cause tree (breadth first, bounded) that carries a code. */
function codedError(error: unknown): { code: string; message: string } | null {
  const queue: unknown[] = [error];
  for (let visited = 0; queue.length > 0 && visited < 32; visited++) {
    const current = queue.shift();
    if (typeof current !== 'object' || current === null) continue;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && ERROR_CODE.test(code)) {
      const message = (current as { message?: unknown }).message;
      return { code, message: typeof message === 'string' ? message : '' };
    }
    queue.push(...innerErrors(current));
  }
  return null;
}

/** The deepest message in the cause chain: the root cause, when nothing carries a code. */
function rootMessage(error: unknown): string {
  let current: unknown = error;
  let message = '';
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const text = (current as { message?: unknown }).message;
    if (typeof text === 'string' && text !== '') message = text;
    current = (current as { cause?: unknown }).cause;
  }
  return message;
}

/** One readable line: OpenSSL's `…:error:0A00010B:SSL routines:fn:reason:file:line` becomes its reason. */
function conciseDetail(message: string): string {
  const openssl = /:error:[0-9A-F]+:[^:]*:[^:]*:([^:]+)/.exec(message);
  const line = (openssl?.[1] ?? message).split('\n')[0]?.trim() ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/**
 * Why a connection to a server failed, from the cause chain of a `fetch`
 * error: the kind (refused, DNS, TLS, reset, timeout), the code and its detail.
 *
 * @example
 * ```ts
 * await fetch('http://127.0.0.1:8099/v1').catch(describeConnectionFailure); // nothing listening
 * // 'connection refused (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:8099)'
 * describeConnectionFailure(new Error('fetch failed', { cause: { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND nowhere.invalid' } }));
 * // 'DNS lookup failed (ENOTFOUND: getaddrinfo ENOTFOUND nowhere.invalid)'
 * ```
 */
export function describeConnectionFailure(error: unknown): string {
  const coded = codedError(error);
  if (coded === null) return conciseDetail(rootMessage(error)) || 'connection failed';
  const detail = conciseDetail(coded.message);
  return `${failureKind(coded.code)} (${coded.code}${detail && detail !== coded.code ? `: ${detail}` : ''})`;
}

/**
 * A base URL fit for an error message: user name, password, query and
 * fragment (where keys may hide) are dropped; otherwise it is shown as given.
 *
 * @example
 * ```ts
 * displayBaseUrl('https://user:secret@example.com/v1?key=k'); // 'https://example.com/v1'
 * displayBaseUrl('http://localhost:11434/v1'); // 'http://localhost:11434/v1'
 * ```
 */
export function displayBaseUrl(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return baseURL;
  }
  if (url.username === '' && url.password === '' && url.search === '' && url.hash === '') {
    return baseURL;
  }
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.href;
}
