import { describe, expect, it } from 'vitest';
import { ackWaitFor, parseQueueUri, QueueUriError } from '../../../src/ports/queue/queueUri.js';
import { NatsUrlError } from '../../../src/ports/queue/runQueue.js';
import { defaultLeaseTtlMs } from '../../../src/ports/store/leaseOwner.js';

describe('queue URIs, chosen as stores are', () => {
  it('reads a NATS URL, giving a bare host:port the nats:// scheme', () => {
    expect(parseQueueUri('nats://127.0.0.1:4222', {})).toEqual({
      kind: 'nats',
      url: 'nats://127.0.0.1:4222',
    });
    expect(parseQueueUri(' queue.local:4222 ', {})).toEqual({
      kind: 'nats',
      url: 'nats://queue.local:4222',
    });
    expect(parseQueueUri('tls://queue.local:4222', {}).url).toBe('tls://queue.local:4222');
  });

  it('takes ARENA_NATS when no URI is given, and the URI over it when one is', () => {
    const environment = { ARENA_NATS: 'nats://from-env:4222' };
    expect(parseQueueUri(undefined, environment).url).toBe('nats://from-env:4222');
    expect(parseQueueUri('nats://given:4222', environment).url).toBe('nats://given:4222');
  });

  it('refuses no queue at all and a URI of another kind, each with its own error', () => {
    expect(() => parseQueueUri(undefined, {})).toThrow(QueueUriError);
    expect(() => parseQueueUri(undefined, { ARENA_NATS: '  ' })).toThrow(QueueUriError);
    expect(() => parseQueueUri('postgres://db/arena', {})).toThrow(NatsUrlError);
  });

  it("waits half again a lease's lapse before a run is delivered to another worker", () => {
    expect(ackWaitFor(undefined)).toBe(defaultLeaseTtlMs * 1.5);
    expect(ackWaitFor(2000)).toBe(3000);
  });
});
