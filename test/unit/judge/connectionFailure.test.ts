import { describe, expect, it } from 'vitest';
import {
  describeConnectionFailure,
  displayBaseUrl,
} from '../../../src/ports/runtime/connectionFailure.js';

/** The shape undici gives a failed fetch: `TypeError('fetch failed')` with the system error as cause. */
function fetchFailed(cause: unknown): Error {
  return new TypeError('fetch failed', { cause });
}

function systemError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('connection failure description', () => {
  it('names a DNS failure and its code', () => {
    const error = fetchFailed(systemError('ENOTFOUND', 'getaddrinfo ENOTFOUND judge.invalid'));
    expect(describeConnectionFailure(error)).toBe(
      'DNS lookup failed (ENOTFOUND: getaddrinfo ENOTFOUND judge.invalid)',
    );
  });

  it('names a refused connection inside an AggregateError (IPv6 and IPv4 both tried)', () => {
    const error = fetchFailed(
      new AggregateError([
        systemError('ECONNREFUSED', 'connect ECONNREFUSED ::1:8080'),
        systemError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8080'),
      ]),
    );
    expect(describeConnectionFailure(error)).toBe(
      'connection refused (ECONNREFUSED: connect ECONNREFUSED ::1:8080)',
    );
  });

  it('names a certificate failure as TLS and keeps only the reason of an OpenSSL message', () => {
    const certificate = fetchFailed(
      systemError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'),
    );
    expect(describeConnectionFailure(certificate)).toBe(
      'TLS handshake failed (DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate)',
    );
    const openssl = fetchFailed(
      systemError(
        'ERR_SSL_WRONG_VERSION_NUMBER',
        '80:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:ssl3_record.c:350:\n',
      ),
    );
    expect(describeConnectionFailure(openssl)).toBe(
      'TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER: wrong version number)',
    );
  });

  it('falls back to the root message when no error carries a code', () => {
    expect(describeConnectionFailure(fetchFailed(new Error('other side closed')))).toBe(
      'other side closed',
    );
    expect(describeConnectionFailure(undefined)).toBe('connection failed');
  });

  it('drops credentials and query from a base URL, and leaves a plain one as given', () => {
    expect(displayBaseUrl('https://user:secret@example.com/v1?key=k')).toBe(
      'https://example.com/v1',
    );
    expect(displayBaseUrl('http://localhost:11434/v1')).toBe('http://localhost:11434/v1');
  });
});
