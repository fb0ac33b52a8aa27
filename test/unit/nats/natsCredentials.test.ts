import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createUser } from '@nats-io/nkeys';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type NatsCredentials,
  readNatsCredentials,
} from '../../../src/ports/queue/natsCredentials.js';
import {
  openRemoteComponents,
  openRunQueue,
  serveComponents,
} from '../../../src/ports/queue/queueUri.js';
import { repoRoot } from '../../support/cli.js';
import { operatorSetup } from '../../support/natsJwt.js';
import { type NatsServer, startNatsServer } from '../../support/natsServer.js';

const tlsDir = path.join(repoRoot, 'test/fixtures/tls');
const fixture = (name: string) => path.join(tlsDir, name);
const folder = mkdtempSync(path.join(tmpdir(), 'arena-nats-creds-'));
const file = (name: string, text: string) => {
  const written = path.join(folder, name);
  writeFileSync(written, text);
  return written;
};
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Open a submit-only run queue with these credentials, submit one run, close: the server let us in. */
async function submitsWith(url: string, credentials: NatsCredentials): Promise<boolean> {
  const queue = await openRunQueue(url, {
    credentials,
    stream: 'CREDS',
    subject: 'arena.test.creds',
  });
  const receipt = await queue.submit(`run-${Math.random()}`);
  await queue.close();
  return receipt.duplicate === false;
}

/** The one line an open with these credentials fails with. */
async function refusal(url: string, credentials: NatsCredentials): Promise<string> {
  return openRunQueue(url, { credentials, stream: 'CREDS', subject: 'arena.test.creds' }).then(
    async (queue) => {
      await queue.close();
      return 'connected';
    },
    (error: unknown) => (error as Error).message,
  );
}

async function withServer(
  config: string,
  check: (server: NatsServer) => Promise<void>,
): Promise<void> {
  const server = await startNatsServer({ config });
  try {
    await check(server);
  } finally {
    await server.dispose();
  }
}

describe('NATS credentials against a real nats-server', () => {
  it('connects with a user and password given as options, and refuses a wrong one without showing it', async () => {
    await withServer('authorization { user: arena, password: "s3cret" }', async (server) => {
      expect(await submitsWith(server.url, { user: 'arena', password: 's3cret' })).toBe(true);
      const line = await refusal(server.url, { user: 'arena', password: 'wr0ng-s3cret' });
      expect(line).toBe(
        `the NATS server at ${server.url} refused the credentials (Authorization Violation)`,
      );
    });
  });

  it('connects with a token as an option or in the URL', async () => {
    await withServer('authorization { token: "t0ken-s3cret" }', async (server) => {
      expect(await submitsWith(server.url, { token: 't0ken-s3cret' })).toBe(true);
      const inUrl = server.url.replace('nats://', 'nats://t0ken-s3cret@');
      expect(await submitsWith(inUrl, {})).toBe(true);
      const line = await refusal(server.url.replace('nats://', 'nats://wr0ng@'), {});
      expect(line).toBe(
        `the NATS server at ${server.url.replace('nats://', 'nats://***@')} refused the credentials (Authorization Violation)`,
      );
    });
  });

  it('connects with an nkey seed file, and is refused with a seed the server does not know', async () => {
    const user = createUser();
    const seedFile = file('user.nk', `${new TextDecoder().decode(user.getSeed())}\n`);
    const stranger = file('stranger.nk', new TextDecoder().decode(createUser().getSeed()));
    await withServer(
      `authorization { users: [ { nkey: ${user.getPublicKey()} } ] }`,
      async (server) => {
        expect(await submitsWith(server.url, { nkeyFile: seedFile })).toBe(true);
        expect(await refusal(server.url, { nkeyFile: stranger })).toMatch(
          /refused the credentials/,
        );
      },
    );
  });

  it('connects with a creds file to an operator-mode server, and is refused without it', async () => {
    const operator = operatorSetup();
    const credsFile = file('arena.creds', operator.creds);
    await withServer(operator.config, async (server) => {
      expect(await submitsWith(server.url, { credsFile })).toBe(true);
      expect(await refusal(server.url, {})).toMatch(/refused the credentials/);
    });
  });

  describe('over TLS', () => {
    const serverTls = (cert: string, extra = '') =>
      `tls { cert_file: "${fixture(`${cert}.pem`)}", key_file: "${fixture(`${cert}-key.pem`)}"${extra} }`;
    const tlsUrl = (server: NatsServer) => server.url.replace('nats://', 'tls://');

    it('trusts the server by the CA file and checks its certificate names the address', async () => {
      await withServer(serverTls('server'), async (server) => {
        expect(await submitsWith(tlsUrl(server), { tlsCaFile: fixture('ca.pem') })).toBe(true);
        expect(await refusal(tlsUrl(server), { tlsCaFile: fixture('other-ca.pem') })).toBe(
          `the NATS server at ${tlsUrl(server)} has a certificate arena does not trust (unable to verify the first certificate): name the CA that signed it as the TLS CA file`,
        );
      });
      await withServer(serverTls('elsewhere'), async (server) => {
        expect(await refusal(tlsUrl(server), { tlsCaFile: fixture('ca.pem') })).toMatch(
          /has a certificate arena does not trust \(Hostname\/IP does not match certificate's altnames: IP: 127\.0\.0\.1/,
        );
      });
    });

    it('presents a client certificate to a server with tls { verify: true }', async () => {
      const verify = serverTls('server', `, ca_file: "${fixture('ca.pem')}", verify: true`);
      await withServer(verify, async (server) => {
        expect(
          await submitsWith(tlsUrl(server), {
            tlsCaFile: fixture('ca.pem'),
            tlsCertFile: fixture('client.pem'),
            tlsKeyFile: fixture('client-key.pem'),
          }),
        ).toBe(true);
      });
    });

    it('says a plain server does not offer TLS when the URL is tls://', async () => {
      await withServer('', async (server) => {
        expect(await refusal(tlsUrl(server), {})).toBe(
          `the NATS server at ${tlsUrl(server)} does not offer TLS (a tls:// URL or a TLS file asks for it)`,
        );
      });
    });
  });

  it('hands credentials to remote components and their service', async () => {
    await withServer('authorization { user: arena, password: "s3cret" }', async (server) => {
      const credentials = { user: 'arena', password: 's3cret' };
      const service = await serveComponents(server.url, {
        service: 'creds',
        make: () => ({}),
        credentials,
      });
      const host = await openRemoteComponents(server.url, { credentials });
      await host.close();
      await service.drain();
      const refused = await openRemoteComponents(server.url, {}).then(
        () => 'connected',
        (error: unknown) => (error as Error).message,
      );
      expect(refused).toBe('Authorization Violation');
    });
  });
});

describe('a bad credential setting, before any connection', () => {
  const url = 'nats://127.0.0.1:4222';
  const badLine = (credentials: NatsCredentials, at = url) => {
    try {
      readNatsCredentials(at, credentials);
      return 'accepted';
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  };

  it('names the setting and the file for a missing or wrong file', () => {
    const missing = path.join(folder, 'gone.creds');
    expect(badLine({ credsFile: missing })).toBe(
      `NatsCredentialsError: credsFile: cannot read ${missing} (ENOENT)`,
    );
    const notCreds = file('not.creds', 'hello\n');
    expect(badLine({ credsFile: notCreds })).toBe(
      `NatsCredentialsError: credsFile: ${notCreds} is not a NATS creds file (a user JWT and an nkey seed, as nsc writes it)`,
    );
    expect(badLine({ nkeyFile: notCreds })).toMatch(
      /^NatsCredentialsError: nkeyFile: .* is not an nkey seed file/,
    );
    expect(badLine({ tlsCaFile: notCreds })).toBe(
      `NatsCredentialsError: tlsCaFile: ${notCreds} is not a PEM file`,
    );
  });

  it('refuses a certificate without its key, two ways to authenticate, a password without a user', () => {
    expect(badLine({ tlsCertFile: fixture('client.pem') })).toBe(
      'NatsCredentialsError: tlsCertFile: a client certificate needs both its certificate and its key: give tlsKeyFile too',
    );
    expect(badLine({ token: 'x' }, 'nats://arena:s3cret@127.0.0.1:4222')).toBe(
      "NatsCredentialsError: token: the URL's user part already gives credentials: give one way to authenticate",
    );
    expect(badLine({ password: 's3cret' })).toBe(
      'NatsCredentialsError: password: a password needs a user (user)',
    );
  });

  it('never puts a secret in its message', () => {
    const seed = new TextDecoder().decode(createUser().getSeed());
    const seedAsCa = file('seed.pem', seed);
    const line = badLine({ tlsCaFile: seedAsCa, user: 'arena', password: 'pw-s3cret' });
    expect(line).not.toContain(seed);
    expect(line).not.toContain('pw-s3cret');
  });
});
