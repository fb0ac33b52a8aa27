import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/ports/runtime/redactUrl.js';
import { type TlsSettings, tlsPlan } from '../../../src/ports/store/postgres/postgresTls.js';
import { readTlsSettings } from '../../../src/ports/store/postgres/postgresTlsFiles.js';
import { parsePostgresUri } from '../../../src/ports/store/postgres/postgresUri.js';
import { StoreUriError, StoreUriParameterError } from '../../../src/ports/store/storeErrors.js';
import { parseStoreUri } from '../../../src/ports/store/storeUri.js';

const display = 'postgres://arena@db:5432/runs';
const pem = '-----BEGIN CERTIFICATE-----\nroots\n-----END CERTIFICATE-----\n';
const noCheck = { rejectUnauthorized: false, verifyHostName: false };
const chainOnly = { rejectUnauthorized: true, verifyHostName: false, ca: pem };
const chainAndName = { rejectUnauthorized: true, verifyHostName: true, ca: pem };
const systemChain = { rejectUnauthorized: true, verifyHostName: true };

const folder = mkdtempSync(path.join(tmpdir(), 'arena-tls-unit-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('sslmode as libpq reads it', () => {
  // sslmode × sslrootcert (no file, a file, system) → the attempts, in order; false is plaintext
  it.each<[TlsSettings['sslmode'], 'none' | 'file' | 'system', unknown]>([
    ['disable', 'none', [false]],
    ['disable', 'file', [false]],
    ['allow', 'none', [false, noCheck]],
    ['allow', 'file', [false, chainOnly]],
    [undefined, 'none', [noCheck, false]],
    ['prefer', 'none', [noCheck, false]],
    ['prefer', 'file', [chainOnly, false]],
    ['require', 'none', [noCheck]],
    ['require', 'file', [chainOnly]],
    ['verify-ca', 'file', [chainOnly]],
    ['verify-full', 'file', [chainAndName]],
    ['verify-full', 'system', [systemChain]],
    [undefined, 'system', [systemChain]],
  ])('sslmode=%s with sslrootcert %s tries %j', (sslmode, roots, attempts) => {
    const settings: TlsSettings = {
      ...(sslmode !== undefined ? { sslmode } : {}),
      ...(roots === 'file' ? { rootCertificates: pem } : {}),
      ...(roots === 'system' ? { systemRoots: true } : {}),
    };
    expect(tlsPlan(settings, display).attempts).toEqual(attempts);
  });

  it.each([
    ['verify-ca', false],
    ['verify-full', false],
    ['require', true],
    ['prefer', true],
  ] as const)(
    'refuses sslmode=%s where libpq refuses it (sslrootcert=system: %s)',
    (sslmode, systemRoots) => {
      const refuse = () =>
        tlsPlan({ sslmode, systemRoots, rootCertificateFile: '/nowhere/root.crt' }, display);
      expect(refuse).toThrow(StoreUriParameterError);
      expect(refuse).toThrow(
        systemRoots
          ? `${display}: sslmode=${sslmode} may not be used with sslrootcert=system (use sslmode=verify-full)`
          : `${display}: sslmode=${sslmode} needs a root certificate, and sslrootcert /nowhere/root.crt does not exist`,
      );
    },
  );

  it('sends a client certificate and key with every TLS attempt', () => {
    const client = { cert: 'CERT', key: 'KEY' };
    expect(tlsPlan({ sslmode: 'allow', client }, display).attempts).toEqual([
      false,
      { ...noCheck, ...client },
    ]);
  });
});

describe('the TLS parameters of a store URI', () => {
  const ca = path.join(folder, 'ca.pem');
  writeFileSync(ca, pem);
  const home = { HOME: folder };

  it('takes the URI parameters over PGSSLMODE and PGSSLROOTCERT, and reads the root file', () => {
    const fromUri = readTlsSettings(
      new URLSearchParams(`sslmode=verify-ca&sslrootcert=${ca}`),
      { ...home, PGSSLMODE: 'disable', PGSSLROOTCERT: '/nowhere' },
      display,
    );
    expect(fromUri).toEqual({
      sslmode: 'verify-ca',
      rootCertificates: pem,
      rootCertificateFile: ca,
    });
    expect(
      readTlsSettings(
        new URLSearchParams(),
        { ...home, PGSSLMODE: 'require', PGSSLROOTCERT: ca },
        display,
      ),
    ).toEqual({ sslmode: 'require', rootCertificates: pem, rootCertificateFile: ca });
    expect(readTlsSettings(new URLSearchParams('sslrootcert=system'), home, display)).toEqual({
      systemRoots: true,
    });
  });

  it('looks for ~/.postgresql/root.crt by default, and goes on without it when it is missing', () => {
    expect(readTlsSettings(new URLSearchParams(), home, display)).toEqual({
      rootCertificateFile: path.join(folder, '.postgresql', 'root.crt'),
    });
  });

  it.each([
    [
      'sslmode=on',
      {},
      `${display}: sslmode must be disable, allow, prefer, require, verify-ca or verify-full, got 'on'`,
    ],
    [
      '',
      { PGSSLMODE: 'yes' },
      `${display}: PGSSLMODE must be disable, allow, prefer, require, verify-ca or verify-full, got 'yes'`,
    ],
    [
      `sslcert=${ca}&sslkey=${path.join(folder, 'none.key')}`,
      {},
      `${display}: sslcert ${ca} is there but its key sslkey ${path.join(folder, 'none.key')} does not exist`,
    ],
  ])('refuses ?%s %j in one line naming the parameter', (query, environment, message) => {
    const read = () =>
      readTlsSettings(new URLSearchParams(query), { ...home, ...environment }, display);
    expect(read).toThrow(StoreUriParameterError);
    expect(read).toThrow(message);
  });

  it('refuses a client key others can read, as libpq does', () => {
    const key = path.join(folder, 'open.key');
    writeFileSync(key, 'KEY', { mode: 0o644 });
    expect(() =>
      readTlsSettings(new URLSearchParams(`sslcert=${ca}&sslkey=${key}`), home, display),
    ).toThrow(`sslkey ${key} has group or world access`);
  });

  it('refuses a parameter arena does not know, so a misspelt sslmode is never plaintext', () => {
    expect(() =>
      parsePostgresUri('postgres://arena@db:5432/runs?sslmdoe=require', 5000, home),
    ).toThrow(
      `${display}: unknown parameter 'sslmdoe' (arena takes sslmode, sslrootcert, sslcert, sslkey, password)`,
    );
  });

  it('takes ?password= as libpq does', () => {
    const { config } = parsePostgresUri(
      'postgres://arena@db/runs?password=s3cret&sslmode=disable',
      5000,
      home,
    );
    expect(config.password).toBe('s3cret');
    expect(config.tls).toEqual({ sslmode: 'disable', attempts: [false] });
  });
});

describe('passwords in store URIs', () => {
  it('never shows the password of a URI StoreUriError names', () => {
    for (const uri of [
      'postgres://arena:s3cret@/runs',
      'postgres://arena:s3cret@db:5432',
      'postgres://arena:s3c@ret@db:5432',
      'postgres://db/runs?password=s3cret',
    ]) {
      let message = '';
      try {
        parseStoreUri(uri, '/work');
      } catch (error) {
        expect(error).toBeInstanceOf(StoreUriError);
        message = (error as Error).message;
      }
      expect(message).toContain('***');
      expect(message).not.toContain('s3c');
    }
  });

  it('redacts a password= of the query and a password holding an @', () => {
    expect(redactUrl('postgres://db/runs?sslmode=require&password=s3cret')).toBe(
      'postgres://db/runs?sslmode=require&password=***',
    );
    expect(redactUrl('postgres://u:p@ss@db:5432/arena')).toBe('postgres://u:***@db:5432/arena');
  });
});
