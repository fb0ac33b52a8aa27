import { describe, expect, it } from 'vitest';
import { NatsUrlError } from '../../../src/ports/queue/runQueue.js';
import { redactUrl } from '../../../src/ports/runtime/redactUrl.js';

describe('redactUrl', () => {
  it('writes a password or a token as *** and keeps the rest of the URL', () => {
    expect(redactUrl('nats://arena:s3cret@127.0.0.1:4222')).toBe('nats://arena:***@127.0.0.1:4222');
    expect(redactUrl('nats://t0ken@127.0.0.1:4222')).toBe('nats://***@127.0.0.1:4222');
    expect(redactUrl('postgres://u:p%40ss@db:5432/arena?sslmode=require')).toBe(
      'postgres://u:***@db:5432/arena?sslmode=require',
    );
    expect(redactUrl('nats://127.0.0.1:4222')).toBe('nats://127.0.0.1:4222');
    expect(redactUrl('127.0.0.1:4222')).toBe('127.0.0.1:4222');
  });

  it('keeps a bad --nats value secret in the error that names it', () => {
    const error = new NatsUrlError('http://arena:s3cret@127.0.0.1:4222');
    expect(error.message).not.toContain('s3cret');
    expect(error.message).toContain('http://arena:***@127.0.0.1:4222');
  });
});
