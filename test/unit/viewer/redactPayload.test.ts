import { describe, expect, it } from 'vitest';
import { REDACTED, redactPayload } from '../../../src/viewer/redactPayload.js';

describe('redactPayload', () => {
  it('hides the values of keys that name secrets, at any depth', () => {
    expect(
      redactPayload({
        type: 'login',
        user: 'ada',
        apiKey: 'k-123',
        nested: { auth: { password: 'pw', Authorization: 'x' }, list: [{ token: 't' }] },
      }),
    ).toEqual({
      type: 'login',
      user: 'ada',
      apiKey: REDACTED,
      nested: {
        auth: { password: REDACTED, Authorization: REDACTED },
        list: [{ token: REDACTED }],
      },
    });
  });

  it('hides strings shaped like credentials whatever their key, and a URL password', () => {
    expect(
      redactPayload({
        header: 'Bearer abc.def',
        key: 'sk-abcdefghijkl',
        url: 'nats://arena:s3cret@127.0.0.1:4222',
        plain: 'skipped the step',
      }),
    ).toEqual({
      header: REDACTED,
      key: REDACTED,
      url: 'nats://arena:***@127.0.0.1:4222',
      plain: 'skipped the step',
    });
  });

  it('leaves a payload without secrets as it was', () => {
    const payload = { type: 'episode.ended', completedEpisodes: 3, environmentDone: false };
    expect(redactPayload(payload)).toEqual(payload);
  });
});
