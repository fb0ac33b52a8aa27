import { StoreUriParameterError } from '../storeErrors.js';

/**
 * libpq's `sslmode` values, weakest first.
 *
 * @example
 * ```ts
 * sslModes.includes('verify-full'); // true
 * ```
 */
export const sslModes = [
  'disable',
  'allow',
  'prefer',
  'require',
  'verify-ca',
  'verify-full',
] as const;

/** One of libpq's `sslmode` values. */
export type SslMode = (typeof sslModes)[number];

/** The TLS parameters of a store URI, with the files they name already read. */
export interface TlsSettings {
  /** `sslmode` as given (URI, else `PGSSLMODE`); absent means libpq's default. */
  readonly sslmode?: SslMode;
  /** The trusted roots: the PEM text of `sslrootcert` (default `~/.postgresql/root.crt`) when that file exists. */
  readonly rootCertificates?: string;
  /** The root certificate file looked for, to name it when it is missing. */
  readonly rootCertificateFile?: string;
  /** `sslrootcert=system`: the system's trusted roots. */
  readonly systemRoots?: boolean;
  /** A client certificate and its key (`sslcert`, `sslkey`), when the certificate file exists. */
  readonly client?: { readonly cert: string; readonly key: string };
}

/**
 * One way to try a connection: `false` for plaintext, else the TLS options
 * `pg` takes, as plain data (it crosses to a worker thread); `verifyHostName`
 * false means the chain may be checked but not the server's name.
 */
export type TlsAttempt =
  | false
  | {
      readonly rejectUnauthorized: boolean;
      readonly verifyHostName: boolean;
      readonly ca?: string;
      readonly cert?: string;
      readonly key?: string;
    };

/** How a store connects: its sslmode and the attempts it makes, in order, until one connects. */
export interface TlsPlan {
  readonly sslmode: SslMode;
  readonly attempts: readonly TlsAttempt[];
}

/**
 * What libpq does for a `sslmode` (its rules, not `pg`'s): `disable`
 * plaintext; `allow` plaintext, then TLS; `prefer` (the default) TLS, then
 * plaintext; `require` TLS only; `verify-ca` TLS with the server's chain
 * checked against the root certificates; `verify-full` the chain and the
 * server's name. With a root certificate file, every TLS attempt checks the
 * chain (so `require` is `verify-ca`); `sslrootcert=system` allows only
 * `verify-full`, its default.
 *
 * @example
 * ```ts
 * tlsPlan({}, 'postgres://arena@db/runs').attempts;
 * // [{ rejectUnauthorized: false, verifyHostName: false }, false]
 * tlsPlan({ sslmode: 'verify-full', rootCertificates: pem }, 'postgres://arena@db/runs').attempts;
 * // [{ rejectUnauthorized: true, verifyHostName: true, ca: pem }]
 * tlsPlan({ sslmode: 'verify-ca' }, 'postgres://arena@db/runs');
 * // StoreUriParameterError: postgres://arena@db/runs: sslmode=verify-ca needs a root certificate: …
 * ```
 */
export function tlsPlan(settings: TlsSettings, display: string): TlsPlan {
  const system = settings.systemRoots === true;
  const sslmode = settings.sslmode ?? (system ? 'verify-full' : 'prefer');
  if (system && sslmode !== 'verify-full') {
    throw new StoreUriParameterError(
      display,
      `sslmode=${sslmode} may not be used with sslrootcert=system (use sslmode=verify-full)`,
    );
  }
  const roots = settings.rootCertificates;
  const verifying = sslmode === 'verify-ca' || sslmode === 'verify-full';
  if (verifying && roots === undefined && !system) {
    throw new StoreUriParameterError(
      display,
      `sslmode=${sslmode} needs a root certificate, and sslrootcert ${settings.rootCertificateFile ?? '~/.postgresql/root.crt'} does not exist: give sslrootcert=FILE, sslrootcert=system, or a weaker sslmode`,
    );
  }
  const checksChain = verifying || roots !== undefined;
  const tls: TlsAttempt = {
    rejectUnauthorized: checksChain,
    verifyHostName: sslmode === 'verify-full',
    ...(checksChain && roots !== undefined ? { ca: roots } : {}),
    ...(settings.client ?? {}),
  };
  const attempts: Record<SslMode, readonly TlsAttempt[]> = {
    disable: [false],
    allow: [false, tls],
    prefer: [tls, false],
    require: [tls],
    'verify-ca': [tls],
    'verify-full': [tls],
  };
  return { sslmode, attempts: attempts[sslmode] };
}

/**
 * Socket failures that end the whole connection, whatever the attempt: libpq
 * tries another sslmode only once the server answered.
 */
export const unreachableCodes: readonly string[] = [
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
];

/**
 * The first of a plan's attempts that connects, tried in order as libpq
 * tries them; a failure before the server answered ends them all.
 *
 * @example
 * ```ts
 * const attempt = await firstConnecting(config.tls, async (attempt) => {
 *   const client = new pg.Client({ ...connection, ssl: pgSsl(attempt) });
 *   await client.connect();
 *   await client.end();
 * });
 * ```
 */
export async function firstConnecting(
  plan: TlsPlan,
  connect: (attempt: TlsAttempt) => Promise<void>,
): Promise<TlsAttempt> {
  let failed: unknown;
  for (const attempt of plan.attempts) {
    try {
      await connect(attempt);
      return attempt;
    } catch (error) {
      const { code, message } = error as { code?: unknown; message?: unknown };
      if (failed === undefined || !hbaRefusal.test(String(message))) failed = error;
      if (unreachableCodes.includes(String(code)) || /timeout expired/.test(String(message))) break;
    }
  }
  throw failed;
}

/**
 * pg_hba.conf refusing a session for its encryption: after another attempt
 * failed, that attempt's failure (a wrong password) says more.
 */
export const hbaRefusal = /no pg_hba\.conf entry|pg_hba\.conf rejects/;

/**
 * The `ssl` option of `pg` for an attempt: a chain-only check (`verify-ca`)
 * skips the name check, which needs a function, so it cannot cross to a worker as data.
 *
 * @example
 * ```ts
 * pgSsl(false); // false
 * pgSsl({ rejectUnauthorized: true, verifyHostName: true, ca: pem }); // { rejectUnauthorized: true, ca: pem }
 * ```
 */
export function pgSsl(attempt: TlsAttempt): false | Record<string, unknown> {
  if (attempt === false) return false;
  const { verifyHostName, ...ssl } = attempt;
  return verifyHostName ? ssl : { ...ssl, checkServerIdentity: () => undefined };
}
