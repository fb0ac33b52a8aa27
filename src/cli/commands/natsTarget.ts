import type { Command } from 'commander';
import { componentRefsOf, REMOTE_PREFIX } from '../../config/components.js';
import type { RunSpec } from '../../config/runSpec.js';
import {
  type NatsCredentialLabels,
  type NatsCredentials,
  NatsCredentialsError,
  readNatsCredentials,
} from '../../ports/queue/natsCredentials.js';
import { onOpenNatsServer } from '../../ports/queue/natsOpenServer.js';
import { parseQueueUri, QueueUriError } from '../../ports/queue/queueUri.js';
import { NatsUrlError } from '../../ports/queue/runQueue.js';
import { CliError, ExitCode } from '../errors.js';

/** A NATS server as a command connects to it: its URL and the credentials the flags and env gave. */
export interface NatsTarget {
  readonly url: string;
  readonly credentials: NatsCredentials;
  /** `--trust-service`: the instance keys trusted per service, when any are given. */
  readonly trustedKeys?: Readonly<Record<string, readonly string[]>>;
}

/** The credential flags `--nats` commands take, as commander names them. */
export interface NatsCredentialFlags {
  nats?: string;
  requireAuth?: boolean;
  trustService?: string[];
  natsCreds?: string;
  natsNkey?: string;
  natsTlsCa?: string;
  natsTlsCert?: string;
  natsTlsKey?: string;
}

/** Each setting: its flag (none for secrets: env only, off the command line), the env var, the help. */
const SETTINGS: readonly {
  readonly setting: keyof NatsCredentials;
  readonly env: string;
  readonly flag?: readonly [string, keyof NatsCredentialFlags, string];
}[] = [
  { setting: 'user', env: 'ARENA_NATS_USER' },
  { setting: 'password', env: 'ARENA_NATS_PASSWORD' },
  { setting: 'token', env: 'ARENA_NATS_TOKEN' },
  {
    setting: 'credsFile',
    env: 'ARENA_NATS_CREDS',
    flag: ['--nats-creds <file>', 'natsCreds', 'a NATS .creds file: user JWT and nkey seed'],
  },
  {
    setting: 'nkeyFile',
    env: 'ARENA_NATS_NKEY',
    flag: ['--nats-nkey <file>', 'natsNkey', 'a file holding an nkey seed (SU…)'],
  },
  {
    setting: 'tlsCaFile',
    env: 'ARENA_NATS_TLS_CA',
    flag: [
      '--nats-tls-ca <file>',
      'natsTlsCa',
      "PEM: the CA the NATS server's certificate is signed by",
    ],
  },
  {
    setting: 'tlsCertFile',
    env: 'ARENA_NATS_TLS_CERT',
    flag: [
      '--nats-tls-cert <file>',
      'natsTlsCert',
      'PEM: a client certificate (with --nats-tls-key)',
    ],
  },
  {
    setting: 'tlsKeyFile',
    env: 'ARENA_NATS_TLS_KEY',
    flag: ['--nats-tls-key <file>', 'natsTlsKey', "PEM: the client certificate's key"],
  },
];

/**
 * Add `--nats <url>` (with this help) and the NATS credential flags to a command.
 *
 * @example
 * ```ts
 * withNatsOptions(program.command('worker'), 'the NATS server with JetStream (default: ARENA_NATS)');
 * // arena worker --nats tls://nats:4222 --nats-creds arena.creds --nats-tls-ca ca.pem
 * ```
 */
export function withNatsOptions(command: Command, help: string): Command {
  command.option('--nats <url>', help);
  for (const { env, flag } of SETTINGS) {
    if (flag !== undefined) command.option(flag[0], `${flag[2]} (default: ${env})`);
  }
  command.option(
    '--require-auth',
    'refuse a NATS server that asks for no authentication (default: ARENA_NATS_REQUIRE_AUTH=1)',
  );
  return command;
}

/** An Ed25519 public key as `arena serve` prints it: SPKI DER in base64. */
const INSTANCE_KEY = /^MCowBQYDK2VwAyEA[A-Za-z0-9+/]{43}=$/;

/**
 * Add the options of a command that opens remote components: the NATS
 * server and its credentials (as {@link withNatsOptions}), and
 * `--trust-service <service=key>` (repeatable): a service named there is used
 * only through an instance holding one of its keys.
 *
 * @example
 * ```ts
 * withRemoteComponentOptions(program.command('worker'), 'the NATS server with JetStream (default: ARENA_NATS)');
 * // arena worker --nats tls://nats:4222 --trust-service tank=MCowBQYDK2VwAyEA… --trust-service tank=MCowBQYDK2VwAyEA…
 * ```
 */
export function withRemoteComponentOptions(command: Command, help: string): Command {
  command.option(
    '--trust-service <service=key>',
    'use the service only through an instance holding this key, as arena serve prints it (repeatable)',
    (pin: string, pins: string[]) => [...pins, pin],
    [] as string[],
  );
  return withNatsOptions(command, help);
}

/**
 * The keys of `--trust-service service=key` flags, by service; a malformed
 * one is a `CliError` (exit 2) naming it.
 *
 * @example
 * ```ts
 * trustedKeysOf(['tank=MCowBQYDK2VwAyEA…']); // { tank: ['MCowBQYDK2VwAyEA…'] }
 * trustedKeysOf(['tank']); // CliError: --trust-service tank: expected <service>=<key> …
 * ```
 */
export function trustedKeysOf(
  pins: readonly string[] | undefined,
): Readonly<Record<string, readonly string[]>> | undefined {
  if (pins === undefined || pins.length === 0) return undefined;
  const keys: Record<string, string[]> = {};
  for (const pin of pins) {
    const at = pin.indexOf('=');
    const service = at < 0 ? '' : pin.slice(0, at);
    const key = at < 0 ? '' : pin.slice(at + 1);
    if (!/^[A-Za-z0-9_-]+$/.test(service) || !INSTANCE_KEY.test(key)) {
      throw new CliError(
        `--trust-service ${pin.length > 80 ? `${pin.slice(0, 80)}…` : pin}: expected <service>=<key>, the key as arena serve prints it (MCowBQYDK2VwAyEA… , 60 characters)`,
      );
    }
    keys[service] = [...(keys[service] ?? []), key];
  }
  return keys;
}

/**
 * The NATS server a command connects to: `--nats` (or `ARENA_NATS`) and the
 * credentials of the flags, else of `ARENA_NATS_*` env, each file checked
 * now. A bad setting is a `CliError` (exit 2) naming its flag or env var and
 * file, before any connection.
 *
 * @example
 * ```ts
 * natsTargetOf({ nats: 'nats://127.0.0.1:4222', natsCreds: 'gone.creds' });
 * // CliError: --nats-creds: cannot read gone.creds (ENOENT)
 * natsTargetOf({ nats: 'nats://127.0.0.1:4222' }, { ARENA_NATS_USER: 'arena', ARENA_NATS_PASSWORD: 's3cret' });
 * // { url: 'nats://127.0.0.1:4222', credentials: { user: 'arena', password: 's3cret' } }
 * ```
 */
export function natsTargetOf(
  options: NatsCredentialFlags,
  environment: NodeJS.ProcessEnv = process.env,
): NatsTarget {
  const url = natsUrlOf(options.nats);
  // a server without authentication is told once on stderr, whichever connection meets it first,
  // unless the operator said it is open on purpose (a laptop, a CI job)
  onOpenNatsServer(
    environment.ARENA_NATS_ALLOW_OPEN === '1'
      ? null
      : (warning) => process.stderr.write(`arena: warning: ${warning}\n`),
  );
  const credentials: Record<string, string | boolean> = {};
  const labels: NatsCredentialLabels = { url: "the --nats URL's user part" };
  for (const { setting, env, flag } of SETTINGS) {
    const fromFlag = flag === undefined ? undefined : (options[flag[1]] as string | undefined);
    const value = fromFlag ?? nonEmpty(environment[env]);
    // a setting is named as it was given; one not given by its flag, else its env var
    labels[setting] =
      value !== undefined && fromFlag === undefined ? env : (flag?.[0].split(' ')[0] ?? env);
    if (value !== undefined) credentials[setting] = value;
  }
  if (options.requireAuth === true || environment.ARENA_NATS_REQUIRE_AUTH === '1') {
    credentials.requireAuth = true;
  }
  try {
    readNatsCredentials(url, credentials as NatsCredentials, labels);
  } catch (error) {
    if (error instanceof NatsCredentialsError) throw new CliError(error.message);
    throw error;
  }
  const trustedKeys = trustedKeysOf(options.trustService);
  return {
    url,
    credentials: credentials as NatsCredentials,
    ...(trustedKeys !== undefined ? { trustedKeys } : {}),
  };
}

/**
 * The NATS server (and credentials) for a run whose file names `nats:<service>`
 * components, or `null` when it names none (then nothing of NATS loads); such
 * a file without `--nats` or `ARENA_NATS` is bad input naming the first
 * remote component.
 *
 * @example
 * ```ts
 * remoteComponentsTargetOf(spec, {}); // null when no component is nats:<service>
 * // else without --nats: CliError 'schedule[0].…brain: nats:tank is a remote component: name the NATS server with --nats <url> (or ARENA_NATS)'
 * ```
 */
export function remoteComponentsTargetOf(
  spec: RunSpec,
  options: NatsCredentialFlags,
): NatsTarget | null {
  const remote = componentRefsOf(spec).find((ref) => ref.name.startsWith(REMOTE_PREFIX));
  if (remote === undefined) return null;
  if ((options.nats ?? process.env.ARENA_NATS ?? '').trim() === '') {
    throw new CliError(
      `${remote.yamlPath}: ${remote.name} is a remote component: name the NATS server with --nats <url> (or ARENA_NATS)`,
    );
  }
  return natsTargetOf(options);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * The NATS URL of `--nats` or `ARENA_NATS`; a missing or malformed one is a
 * `CliError` (exit 2) naming the option.
 *
 * @example
 * ```ts
 * natsUrlOf(undefined); // with ARENA_NATS=nats://127.0.0.1:4222: 'nats://127.0.0.1:4222'
 * ```
 */
export function natsUrlOf(option: string | undefined): string {
  try {
    return parseQueueUri(option).url;
  } catch (error) {
    if (error instanceof QueueUriError) {
      throw new CliError(
        '--nats <url> is required (or set ARENA_NATS), e.g. nats://127.0.0.1:4222',
      );
    }
    if (error instanceof NatsUrlError) throw new CliError(error.message, ExitCode.badInput);
    throw error;
  }
}
