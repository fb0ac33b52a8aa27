import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { StoreUriParameterError } from '../storeErrors.js';
import { type SslMode, sslModes, type TlsSettings } from './postgresTls.js';

/** A URI parameter and the environment variable libpq falls back to. */
const fallbacks = {
  sslmode: 'PGSSLMODE',
  sslrootcert: 'PGSSLROOTCERT',
  sslcert: 'PGSSLCERT',
  sslkey: 'PGSSLKEY',
} as const;

/**
 * The TLS settings of a store URI's parameters, as libpq finds them: the URI's
 * `sslmode`, `sslrootcert`, `sslcert`, `sslkey`, else `PGSSLMODE`,
 * `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY`, else the files in
 * `~/.postgresql/` (`root.crt`, `postgresql.crt`, `postgresql.key`) when they
 * exist; nothing is read for `sslmode=disable`.
 *
 * @example
 * ```ts
 * readTlsSettings(new URLSearchParams('sslmode=verify-full&sslrootcert=ca.pem'), {}, display);
 * // { sslmode: 'verify-full', rootCertificates: '-----BEGIN CERTIFICATE-----…', rootCertificateFile: 'ca.pem' }
 * readTlsSettings(new URLSearchParams('sslmode=on'), {}, display);
 * // StoreUriParameterError: postgres://arena@db/runs: sslmode must be disable, allow, prefer, require, verify-ca or verify-full, got 'on'
 * ```
 */
export function readTlsSettings(
  parameters: URLSearchParams,
  environment: NodeJS.ProcessEnv,
  display: string,
): TlsSettings {
  const given = (name: keyof typeof fallbacks): { value: string; from: string } | undefined => {
    const value = parameters.get(name);
    if (value !== null) return { value, from: name };
    const fallback = environment[fallbacks[name]];
    return fallback === undefined || fallback === ''
      ? undefined
      : { value: fallback, from: fallbacks[name] };
  };
  const mode = given('sslmode');
  if (mode !== undefined && !(sslModes as readonly string[]).includes(mode.value)) {
    throw new StoreUriParameterError(
      display,
      `${mode.from} must be ${sslModes.slice(0, -1).join(', ')} or ${sslModes.at(-1)}, got '${mode.value}'`,
    );
  }
  const sslmode = mode?.value as SslMode | undefined;
  if (sslmode === 'disable') return { sslmode };
  const home = path.join(environment.HOME ?? homedir(), '.postgresql');
  const rootFile = given('sslrootcert')?.value ?? path.join(home, 'root.crt');
  const systemRoots = rootFile === 'system';
  const rootCertificates = systemRoots ? undefined : readIfThere(rootFile, 'sslrootcert', display);
  const certFile = given('sslcert')?.value ?? path.join(home, 'postgresql.crt');
  const cert = readIfThere(certFile, 'sslcert', display);
  const keyFile = given('sslkey')?.value ?? path.join(home, 'postgresql.key');
  return {
    ...(sslmode !== undefined ? { sslmode } : {}),
    ...(rootCertificates !== undefined ? { rootCertificates } : {}),
    ...(systemRoots ? { systemRoots } : { rootCertificateFile: rootFile }),
    ...(cert !== undefined ? { client: { cert, key: readKey(keyFile, certFile, display) } } : {}),
  };
}

/** A file's text, or `undefined` when it does not exist: libpq then goes on without it. */
function readIfThere(file: string, parameter: string, display: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new StoreUriParameterError(display, `cannot read ${parameter} ${file} (${code})`);
  }
}

/** The client key, which must exist and, as libpq insists, be private to its owner (0600; 0640 if root owns it). */
function readKey(file: string, certFile: string, display: string): string {
  const key = readIfThere(file, 'sslkey', display);
  if (key === undefined) {
    throw new StoreUriParameterError(
      display,
      `sslcert ${certFile} is there but its key sslkey ${file} does not exist`,
    );
  }
  const { mode, uid } = statSync(file);
  const open = uid === process.geteuid?.() ? mode & 0o077 : uid === 0 ? mode & 0o037 : 0;
  if (open !== 0) {
    throw new StoreUriParameterError(
      display,
      `sslkey ${file} has group or world access; it must be u=rw (0600) or less, or u=rw,g=r (0640) or less if root owns it`,
    );
  }
  return key;
}
