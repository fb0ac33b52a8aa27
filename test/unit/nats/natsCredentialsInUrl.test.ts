import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJetStreamRunQueue } from '../../../src/ports/nats/jetStreamRunQueue.js';
import { natsServerOptions } from '../../../src/ports/nats/natsServer.js';
import { type NatsServer, startNatsServer } from '../../support/natsServer.js';

describe('a --nats URL with credentials in its user part', () => {
  it('gives the client a user and password (its replies under _INBOX.<user>), or a token, and a server without them', () => {
    expect(natsServerOptions('nats://arena:s3cret@127.0.0.1:4222')).toEqual({
      servers: 'nats://127.0.0.1:4222',
      inboxPrefix: '_INBOX.arena',
      user: 'arena',
      pass: 's3cret',
    });
    expect(natsServerOptions('nats://t0ken@127.0.0.1:4222')).toEqual({
      servers: 'nats://127.0.0.1:4222',
      token: 't0ken',
    });
    expect(natsServerOptions('tls://a%40b:p%3Aw@nats.example:4443')).toEqual({
      servers: 'tls://nats.example:4443',
      inboxPrefix: '_INBOX.a_b',
      user: 'a@b',
      pass: 'p:w',
      tls: {},
    });
    expect(natsServerOptions('nats://127.0.0.1:4222')).toEqual({
      servers: 'nats://127.0.0.1:4222',
    });
  });

  describe('on a server that requires a password', () => {
    let server: NatsServer;
    beforeAll(async () => {
      server = await startNatsServer({
        config: 'authorization { user: arena, password: "s3cret" }',
      });
    });
    afterAll(async () => {
      await server?.dispose();
    });
    const withUser = (user: string) => server.url.replace('nats://', `nats://${user}@`);

    it('connects with the right password and takes work', async () => {
      const queue = await openJetStreamRunQueue({
        url: withUser('arena:s3cret'),
        stream: 'CREDS',
        subject: 'arena.test.creds',
        consume: { ackWaitMs: 1000 },
      });
      expect(await queue.submit('run-a')).toEqual({ duplicate: false });
      const delivery = await queue.next({ waitMs: 1000 });
      expect(delivery?.runId).toBe('run-a');
      await delivery?.ack();
      await queue.close();
    });

    it('refuses a wrong password in one line that never shows it', async () => {
      const opening = openJetStreamRunQueue({
        url: withUser('arena:wrong-s3cret'),
        stream: 'CREDS',
        subject: 'arena.test.creds',
      });
      const error = await opening.then(
        () => null,
        (caught: unknown) => caught as Error,
      );
      expect(error?.message).toMatch(
        /the NATS server at nats:\/\/arena:\*\*\*@127\.0\.0\.1:\d+ refused the credentials \(Authorization Violation\)/,
      );
      expect(error?.message).toMatch(/authorization/i);
      expect(error?.message).not.toContain('wrong-s3cret');
    });
  });
});
