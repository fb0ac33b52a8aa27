import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresJudgeStore } from '../../src/ports/store/postgres/postgresJudgeStore.js';
import { openPostgresStore } from '../../src/ports/store/postgres/postgresStore.js';
import { StoreOpenError } from '../../src/ports/store/storeErrors.js';
import { repoRoot, runArena } from '../support/cli.js';
import { manualText } from '../support/manual.js';
import {
  passwordUser,
  passwordUserPassword,
  startTestPostgres,
  type TestPostgres,
} from '../support/postgres.js';

const tls = (name: string) => path.join(repoRoot, 'test/fixtures/tls', name);
const ca = tls('ca.pem');
const otherCa = tls('other-ca.pem');
const readme = manualText();
/** A line as the README shows it: on port 5433, the CA file named as the README names it. */
const asInReadme = (line: string, port: number) =>
  line.replaceAll(`:${port}`, ':5433').replaceAll(ca, 'ca.pem');

// `secure` takes TLS only (hostssl) with a certificate for 127.0.0.1; `elsewhere` offers TLS with a
// certificate for elsewhere.example and takes plaintext too, except on its database `tlsless`;
// `plain` has no TLS at all
let secure: TestPostgres;
let elsewhere: TestPostgres;
let plain: TestPostgres;
// the environment arena reads TLS defaults from: no PGSSL* variable, no ~/.postgresql/root.crt
const environment = { HOME: '/nonexistent', PGSSLMODE: '', PGSSLROOTCERT: '' };

beforeAll(async () => {
  [secure, elsewhere, plain] = await Promise.all([
    startTestPostgres({
      tls: { cert: tls('server.pem'), key: tls('server-key.pem'), ca },
      hba: [
        'hostssl certified all 127.0.0.1/32 trust clientcert=verify-ca',
        `hostssl all ${passwordUser} 127.0.0.1/32 scram-sha-256`,
        'hostssl all all 127.0.0.1/32 trust',
      ],
    }),
    startTestPostgres({
      tls: { cert: tls('elsewhere.pem'), key: tls('elsewhere-key.pem') },
      hba: ['hostssl tlsless all 127.0.0.1/32 reject', 'host all all 127.0.0.1/32 trust'],
    }),
    startTestPostgres(),
  ]);
  process.env.HOME = environment.HOME;
  delete process.env.PGSSLMODE;
  delete process.env.PGSSLROOTCERT;
});
afterAll(async () => {
  await Promise.all([secure?.stop(), elsewhere?.stop(), plain?.stop()]);
});

/** Whether each session of arena's on `database` is encrypted, as the server sees it. */
async function sessionsEncrypted(server: TestPostgres, database: string): Promise<boolean[]> {
  const rows = await server.query<{ ssl: boolean }>(
    `SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
     WHERE a.datname = $1 AND a.pid <> pg_backend_pid()`,
    [database],
  );
  return rows.map((row) => row.ssl);
}

/** Open a run store at `uri` and say whether its session is encrypted. */
async function openedEncrypted(server: TestPostgres, uri: string, database: string) {
  const store = openPostgresStore(uri);
  try {
    return await sessionsEncrypted(server, database);
  } finally {
    store.close();
  }
}

/** The one-line message opening `uri` fails with. */
function refusal(uri: string): string {
  let message = '';
  expect(() => {
    try {
      openPostgresStore(uri);
    } catch (error) {
      message = (error as Error).message;
      throw error;
    }
  }).toThrow(StoreOpenError);
  expect(message).not.toContain('\n');
  expect(message).not.toContain(passwordUserPassword);
  return message;
}

describe('sslmode on a PostgreSQL store, as libpq', () => {
  it('sslmode=disable is refused by a server that takes only TLS (hostssl), which the default reaches over TLS', async () => {
    const uri = await secure.createDatabase('disabled');
    expect(await openedEncrypted(secure, uri, 'disabled')).toEqual([true]);
    expect(refusal(`${uri}?sslmode=disable`)).toBe(
      `postgres://arena@127.0.0.1:${secure.port}/disabled: the server at 127.0.0.1:${secure.port} refused user 'arena' (28000: no pg_hba.conf entry for host "127.0.0.1", user "arena", database "disabled", no encryption)`,
    );
  });

  it('sslmode=require encrypts without checking the certificate, even one for another host', async () => {
    const uri = await elsewhere.createDatabase('required');
    expect(await openedEncrypted(elsewhere, `${uri}?sslmode=require`, 'required')).toEqual([true]);
  });

  it('sslmode=verify-ca takes the right sslrootcert and refuses other-ca.pem', async () => {
    const uri = await secure.createDatabase('chain');
    const withPassword = uri.replace('arena@', `${passwordUser}:${passwordUserPassword}@`);
    expect(
      await openedEncrypted(secure, `${withPassword}?sslmode=verify-ca&sslrootcert=${ca}`, 'chain'),
    ).toEqual([true]);
    expect(refusal(`${withPassword}?sslmode=verify-ca&sslrootcert=${otherCa}`)).toMatch(
      new RegExp(
        `^postgres://${passwordUser}@127\\.0\\.0\\.1:${secure.port}/chain: the server at 127\\.0\\.0\\.1:${secure.port} failed sslmode=verify-ca: .+ \\([A-Z_]+\\)$`,
      ),
    );
    // libpq's rule: with a root certificate, require checks the chain as verify-ca does
    expect(refusal(`${uri}?sslmode=require&sslrootcert=${otherCa}`)).toContain(
      'failed sslmode=require',
    );
  });

  it('sslmode=verify-full refuses the elsewhere.example certificate on 127.0.0.1 and takes server.pem', async () => {
    const other = await elsewhere.createDatabase('named');
    expect(refusal(`${other}?sslmode=verify-full&sslrootcert=${ca}`)).toBe(
      `postgres://arena@127.0.0.1:${elsewhere.port}/named: the server at 127.0.0.1:${elsewhere.port} failed sslmode=verify-full: Hostname/IP does not match certificate's altnames: IP: 127.0.0.1 is not in the cert's list:  (ERR_TLS_CERT_ALTNAME_INVALID)`,
    );
    // the same certificate passes a chain-only check: it is the name that fails
    expect(
      await openedEncrypted(elsewhere, `${other}?sslmode=verify-ca&sslrootcert=${ca}`, 'named'),
    ).toEqual([true]);
    const uri = await secure.createDatabase('full');
    expect(
      await openedEncrypted(secure, `${uri}?sslmode=verify-full&sslrootcert=${ca}`, 'full'),
    ).toEqual([true]);
  });

  it('prefer (the default) uses TLS when the server offers it, and plaintext when TLS is refused', async () => {
    const uri = await elsewhere.createDatabase('preferred');
    expect(await openedEncrypted(elsewhere, uri, 'preferred')).toEqual([true]);
    expect(await openedEncrypted(elsewhere, `${uri}?sslmode=disable`, 'preferred')).toEqual([
      false,
    ]);
    const tlsless = await elsewhere.createDatabase('tlsless');
    expect(await openedEncrypted(elsewhere, tlsless, 'tlsless')).toEqual([false]);
    expect(await openedEncrypted(plain, await plain.createDatabase('bare'), 'bare')).toEqual([
      false,
    ]);
  });

  it('names a wrong password, not the plaintext retry pg_hba refused, when prefer fails on a TLS-only server', async () => {
    const uri = await secure.createDatabase('wrongpassword');
    expect(refusal(uri.replace('arena@', `${passwordUser}:wrong@`))).toBe(
      `postgres://${passwordUser}@127.0.0.1:${secure.port}/wrongpassword: the server at 127.0.0.1:${secure.port} refused user '${passwordUser}' (28P01: password authentication failed for user "${passwordUser}")`,
    );
  });

  it('sends the client certificate sslcert and sslkey name to a server that asks for one', async () => {
    const uri = await secure.createDatabase('certified');
    const folder = mkdtempSync(path.join(tmpdir(), 'arena-client-key-'));
    try {
      // libpq (and arena) refuse a key others can read: the fixture is copied 0600
      const key = path.join(folder, 'client.key');
      writeFileSync(key, readFileSync(tls('client-key.pem')), { mode: 0o600 });
      const verified = `${uri}?sslmode=verify-full&sslrootcert=${ca}`;
      expect(refusal(verified)).toContain('connection requires a valid client certificate');
      expect(
        await openedEncrypted(
          secure,
          `${verified}&sslcert=${tls('client.pem')}&sslkey=${key}`,
          'certified',
        ),
      ).toEqual([true]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('allow tries plaintext first, and TLS when the server refuses it', async () => {
    const open = await elsewhere.createDatabase('allowed');
    expect(await openedEncrypted(elsewhere, `${open}?sslmode=allow`, 'allowed')).toEqual([false]);
    const only = await secure.createDatabase('allowedtls');
    expect(await openedEncrypted(secure, `${only}?sslmode=allow`, 'allowedtls')).toEqual([true]);
  });

  it('sslmode=require says in one line that a server offers no TLS', async () => {
    const uri = await plain.createDatabase('notls');
    expect(refusal(`${uri}?sslmode=require`)).toBe(
      `postgres://arena@127.0.0.1:${plain.port}/notls: the server at 127.0.0.1:${plain.port} does not offer TLS, and sslmode=require needs it`,
    );
  });

  it("the judge store's pool connects as the sslmode says", async () => {
    const uri = await secure.createDatabase('judging');
    const store = await openPostgresJudgeStore(`${uri}?sslmode=verify-full&sslrootcert=${ca}`);
    try {
      const sessions = await sessionsEncrypted(secure, 'judging');
      expect(sessions.length).toBeGreaterThan(0);
      expect(sessions.every(Boolean)).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('arena check over sslmode=verify-full', () => {
  it('checks a store on a TLS-only server, and refuses a certificate for another host in one line', async () => {
    const uri = await secure.createDatabase('checked');
    openPostgresStore(uri).close();
    const withPassword = uri.replace('arena@', `${passwordUser}:${passwordUserPassword}@`);
    const checked = await runArena(
      ['check', `${withPassword}?sslmode=verify-full&sslrootcert=${ca}`],
      { env: environment },
    );
    expect(checked.stderr).toBe('');
    expect(checked.stdout).toMatch(
      new RegExp(
        `^ok: postgres://${passwordUser}@127\\.0\\.0\\.1:${secure.port}/checked is a sound arena store`,
      ),
    );
    expect(checked.code).toBe(0);

    const other = await elsewhere.createDatabase('arena');
    const args = ['check', `${other}?sslmode=verify-full&sslrootcert=${ca}`];
    const refused = await runArena(args, { env: environment });
    expect(refused.stderr).toBe(
      `arena: StoreOpenError: postgres://arena@127.0.0.1:${elsewhere.port}/arena: the server at 127.0.0.1:${elsewhere.port} failed sslmode=verify-full: Hostname/IP does not match certificate's altnames: IP: 127.0.0.1 is not in the cert's list:  (ERR_TLS_CERT_ALTNAME_INVALID)\n`,
    );
    expect(refused.code).toBe(2);
    // docs/fleet.md quotes the line (its command needs this server) and names the command
    expect(readme).toContain(`arena check '${asInReadme(args[1]!, elsewhere.port)}'`);
    expect(readme).toContain(asInReadme(refused.stderr, elsewhere.port));
  });

  it('refuses an unknown sslmode with exit 2, naming the parameter and its values, never the password', async () => {
    const uri = `postgres://arena:s3cret@127.0.0.1:${secure.port}/arena?sslmode=on`;
    const result = await runArena(['check', uri], { env: environment });
    expect(result.stderr).toBe(
      `arena: StoreUriParameterError: postgres://arena@127.0.0.1:${secure.port}/arena: sslmode must be disable, allow, prefer, require, verify-ca or verify-full, got 'on'\n`,
    );
    expect(result.code).toBe(2);
    expect(readme).toContain(
      asInReadme(`$ npx arena check '${uri}'\n${result.stderr}`, secure.port),
    );
    const bad = await runArena(['check', `postgres://arena:s3cret@127.0.0.1:${secure.port}`], {
      env: environment,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('s3cret');
    expect(bad.stderr).toContain('arena:***@');
  });
});
