import { readFileSync } from 'node:fs';
import { ArenaError } from '../../domain/shared/errors.js';

/**
 * How arena proves who it is to a NATS server, as the `nats` CLI takes it:
 * a user and password or a token (also in the URL's user part), an nkey seed
 * file or a creds file (a user JWT and its nkey seed), and TLS files (a CA to
 * trust the server by, a client certificate and its key). Files are paths.
 */
export interface NatsCredentials {
  readonly user?: string;
  readonly password?: string;
  readonly token?: string;
  /** A `.creds` file as `nsc` writes it: the user JWT and the user's nkey seed. */
  readonly credsFile?: string;
  /** A file holding an nkey seed (`SU…`), as `nk -gen user` writes it. */
  readonly nkeyFile?: string;
  /** PEM: the CA the server's certificate must chain to (default: Node's trusted CAs). */
  readonly tlsCaFile?: string;
  /** PEM: a client certificate, for a server with `tls { verify: true }`; needs `tlsKeyFile`. */
  readonly tlsCertFile?: string;
  /** PEM: the client certificate's private key. */
  readonly tlsKeyFile?: string;
  /**
   * Refuse a server that asks for no authentication (`NatsOpenServerError`):
   * on it anyone who reaches it can publish and answer (`--require-auth`).
   */
  readonly requireAuth?: boolean;
}

/** The options every NATS opener takes besides its own: the credentials to connect with. */
export interface NatsConnectOptions {
  readonly credentials?: NatsCredentials;
}

/** A credential setting, or `url` for the URL's user part. */
export type NatsCredentialSetting = keyof NatsCredentials | 'url';

/** What each setting is called in messages (the CLI names its flags and env); default: the option name. */
export type NatsCredentialLabels = Partial<Record<NatsCredentialSetting, string>>;

/**
 * A credential setting that cannot be used: a file missing or not what it
 * should be, or settings that do not go together. `setting` names it.
 *
 * @example
 * ```ts
 * readNatsCredentials('nats://127.0.0.1:4222', { credsFile: 'nope.creds' });
 * // NatsCredentialsError: credsFile: cannot read nope.creds (ENOENT)
 * ```
 */
export class NatsCredentialsError extends ArenaError {
  readonly setting: NatsCredentialSetting;
  constructor(setting: NatsCredentialSetting, message: string) {
    super('NATS_CREDENTIALS', message);
    this.setting = setting;
  }
}

/** The credentials read and checked: the server without its user part, one way to authenticate, TLS material. */
export interface ReadNatsCredentials {
  readonly servers: string;
  /** Whether the URL asked for TLS (`tls://`) or TLS files were given. */
  readonly tls: boolean;
  readonly user?: string;
  readonly pass?: string;
  readonly token?: string;
  readonly nkeySeed?: Uint8Array;
  readonly creds?: Uint8Array;
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

const USER_PART = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@(.*)$/i;
/** A creds file: a JWT block, then a seed block, each between `-----…-----` lines (as nats.js parses it). */
const CREDS =
  /-{3,}[^\n]*-{3,}\n\s*(ey[A-Za-z0-9_.-]+)\s*\n\s*-{3,}[^\n]*-{3,}[\s\S]*?-{3,}[^\n]*-{3,}\n\s*(SU[A-Z2-7]{56})\s*\n/;
const SEED = /\bS[A-Z][A-Z2-7]{56}\b/;
const PEM = /-----BEGIN [A-Z0-9 ]+-----/;

/**
 * Read and check the credentials for a NATS URL before any connection: each
 * file readable and what it should be, at most one way to authenticate
 * (the URL's user part counts), a client certificate with its key. A bad
 * setting is a `NatsCredentialsError` naming it (by `labels`) and its file,
 * never a secret.
 *
 * @example
 * ```ts
 * readNatsCredentials('nats://arena:s3cret@127.0.0.1:4222');
 * // { servers: 'nats://127.0.0.1:4222', tls: false, user: 'arena', pass: 's3cret' }
 * readNatsCredentials('tls://127.0.0.1:4222', { tlsCaFile: 'ca.pem' });
 * // { servers: 'tls://127.0.0.1:4222', tls: true, ca: '-----BEGIN CERTIFICATE-----…' }
 * ```
 */
export function readNatsCredentials(
  url: string,
  credentials: NatsCredentials = {},
  labels: NatsCredentialLabels = {},
): ReadNatsCredentials {
  const label = (setting: NatsCredentialSetting) =>
    labels[setting] ?? (setting === 'url' ? "the URL's user part" : setting);
  const fail = (setting: NatsCredentialSetting, message: string): never => {
    throw new NatsCredentialsError(setting, `${label(setting)}: ${message}`);
  };
  const { servers, fromUrl } = splitUserPart(url);
  const auth = { ...fromUrl, ...secretsOf(credentials) };
  const given = (['url', 'user', 'token', 'nkeyFile', 'credsFile'] as const).filter((setting) =>
    setting === 'url'
      ? fromUrl.user !== undefined || fromUrl.token !== undefined
      : credentials[setting] !== undefined,
  );
  if (given.length > 1) {
    fail(
      given[1] as NatsCredentialSetting,
      `${label(given[0] as NatsCredentialSetting)} already gives credentials: give one way to authenticate`,
    );
  }
  if (credentials.password !== undefined && credentials.user === undefined) {
    fail('password', `a password needs a user (${label('user')})`);
  }
  const read = (
    setting: 'credsFile' | 'nkeyFile' | 'tlsCaFile' | 'tlsCertFile' | 'tlsKeyFile',
  ): string | undefined => {
    const file = credentials[setting];
    if (file === undefined) return undefined;
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      return fail(
        setting,
        `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`,
      );
    }
  };
  const expect = (
    setting: keyof NatsCredentials,
    text: string | undefined,
    pattern: RegExp,
    what: string,
  ) => {
    if (text !== undefined && !pattern.test(text))
      fail(setting, `${credentials[setting]} is not ${what}`);
    return text;
  };
  const creds = expect(
    'credsFile',
    read('credsFile'),
    CREDS,
    'a NATS creds file (a user JWT and an nkey seed, as nsc writes it)',
  );
  const seed = expect(
    'nkeyFile',
    read('nkeyFile'),
    SEED,
    'an nkey seed file (a line SU…, as nk -gen user writes it)',
  );
  if ((credentials.tlsCertFile === undefined) !== (credentials.tlsKeyFile === undefined)) {
    const [given, missing] =
      credentials.tlsCertFile === undefined
        ? (['tlsKeyFile', 'tlsCertFile'] as const)
        : (['tlsCertFile', 'tlsKeyFile'] as const);
    fail(
      given,
      `a client certificate needs both its certificate and its key: give ${label(missing)} too`,
    );
  }
  const pem = (setting: 'tlsCaFile' | 'tlsCertFile' | 'tlsKeyFile') =>
    expect(setting, read(setting), PEM, 'a PEM file');
  const tlsFiles = { ca: pem('tlsCaFile'), cert: pem('tlsCertFile'), key: pem('tlsKeyFile') };
  return {
    servers,
    tls: /^tls:\/\//i.test(servers) || Object.values(tlsFiles).some((text) => text !== undefined),
    ...definedOf(auth),
    ...(creds !== undefined ? { creds: new TextEncoder().encode(creds) } : {}),
    ...(seed !== undefined ? { nkeySeed: new TextEncoder().encode(SEED.exec(seed)?.[0]) } : {}),
    ...definedOf(tlsFiles),
  };
}

/** The URL without its user part, and what the user part carried: `user:password@` or a lone `token@`. */
function splitUserPart(url: string): {
  servers: string;
  fromUrl: { user?: string; pass?: string; token?: string };
} {
  const userPart = USER_PART.exec(url);
  if (userPart === null) return { servers: url, fromUrl: {} };
  const [, scheme, user, rest] = userPart as unknown as [string, string, string, string];
  const servers = `${scheme}${rest}`;
  const colon = user.indexOf(':');
  if (colon === -1) return { servers, fromUrl: { token: decodeURIComponent(user) } };
  return {
    servers,
    fromUrl: {
      user: decodeURIComponent(user.slice(0, colon)),
      pass: decodeURIComponent(user.slice(colon + 1)),
    },
  };
}

function secretsOf(credentials: NatsCredentials): { user?: string; pass?: string; token?: string } {
  return definedOf({
    user: credentials.user,
    pass: credentials.password,
    token: credentials.token,
  });
}

function definedOf<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
