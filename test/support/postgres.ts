import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { hangGuard } from './hangGuard.js';

/** A PostgreSQL server these tests started: 127.0.0.1, a free port, a temporary data folder. */
export interface TestPostgres {
  readonly port: number;
  /** A new, empty database on it, as a `postgres://` store URI. */
  createDatabase(name: string): Promise<string>;
  /** A query as the superuser, over the server's socket (`SELECT ssl FROM pg_stat_ssl`). */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * Take the server away and bring it back on the same port with its data:
   * `immediate` crashes it (SIGQUIT, as `pg_ctl restart -m immediate`: crash
   * recovery at the next start), `fast` stops it cleanly (SIGINT); it stays
   * down `downMs` before it starts again.
   */
  restart(options: { mode: 'immediate' | 'fast'; downMs?: number }): Promise<void>;
  /** Stop the server (by its PID) and delete its folder. */
  stop(): Promise<void>;
}

/** How a test server runs. */
export interface TestPostgresOptions {
  /**
   * Commits reach the WAL before they are answered (synchronous_commit on),
   * so a crashed server keeps every transaction it confirmed, as a real one
   * does; off by default (the data is thrown away, speed matters more).
   */
  readonly crashSafe?: boolean;
  /**
   * TLS on (`ssl=on`) with this certificate and key (e.g. `test/fixtures/tls/server.pem`):
   * copied into the server's folder, the key made 0600 as PostgreSQL insists.
   */
  readonly tls?: {
    readonly cert: string;
    readonly key: string;
    /** The CA client certificates must be signed by (`ssl_ca_file`), for `clientcert=` in pg_hba. */
    readonly ca?: string;
  };
  /**
   * pg_hba.conf's TCP lines (`hostssl all all 127.0.0.1/32 trust`), instead of
   * trust for everyone on 127.0.0.1 and a password for `passwordUser`; the
   * tests' own socket connections stay trusted.
   */
  readonly hba?: readonly string[];
  /** More server settings, each `name=value` (`shared_preload_libraries=pg_stat_statements`). */
  readonly settings?: readonly string[];
}

/** The role that logs in with a password (`passwordUserPassword`); `arena` and others need none. */
export const passwordUser = 'arena_pw';
export const passwordUserPassword = 'right-password';

/** What to run where PostgreSQL is missing. */
export const postgresInstallHint = 'apt-get install -y postgresql';

const installHint = `PostgreSQL is not installed (no \`pg_config --bindir\`, no initdb on PATH): run \`${postgresInstallHint}\``;

/** Whether PostgreSQL's server binaries can be found (what the test command installs when not). */
export function hasPostgres(): boolean {
  try {
    postgresBinDir();
    return true;
  } catch {
    return false;
  }
}

/** Where initdb and postgres are: `pg_config --bindir` first, then PATH. */
function postgresBinDir(): string {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {
    // no pg_config: try PATH below
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir !== '' && existsSync(path.join(dir, 'initdb'))) return dir;
  }
  throw new Error(installHint);
}

/** initdb refuses to run as root: run the server as the `postgres` user (or `nobody`) then. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }));
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }));
      return { uid, gid };
    } catch {
      // no such user: try the next
    }
  }
  throw new Error('running as root, and there is no postgres or nobody user to run PostgreSQL as');
}

/** A port nothing listens on (bound, then closed): for a server that is down, or to start one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 0),
      );
    });
  });
}

/**
 * Resolves `true` once the server logs that it accepts connections and `false`
 * when it exits first (its port was taken meanwhile: try another), following
 * its log as it is written. A server that is neither ready nor gone after
 * `hangGuard(60 s)` counts as hung: initdb and start-up slow down on a busy
 * machine, and a guard only costs time when something hangs.
 */
function serverReady(server: ChildProcess, log: () => string): Promise<boolean> {
  const readyLine = 'database system is ready to accept connections';
  return new Promise<boolean>((resolve, reject) => {
    const done = (outcome: boolean | Error) => {
      clearTimeout(guard);
      server.stdout?.off('data', onLog);
      server.stderr?.off('data', onLog);
      server.off('exit', onExit);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onLog = () => {
      if (log().includes(readyLine)) done(true);
    };
    const onExit = () => done(false);
    const guard = setTimeout(
      () =>
        done(
          new Error(
            `postgres was neither ready nor gone after ${hangGuard(60_000)} ms: ${logTail(log())}`,
          ),
        ),
      hangGuard(60_000),
    );
    // after the listeners that collect the log, so each chunk is in log() when onLog reads it
    server.stdout?.on('data', onLog);
    server.stderr?.on('data', onLog);
    server.once('exit', onExit);
    if (server.exitCode !== null || server.signalCode !== null) onExit();
    else onLog();
  });
}

/** The last lines of a server's log, for an error that says why it did not start. */
function logTail(log: string): string {
  return `\n${log.trim().split('\n').slice(-12).join('\n')}`;
}

/** A client of this server once it is ready, or `null` when it exited (its port was taken meanwhile: try another). */
async function connectWhenReady(
  port: number,
  data: string,
  server: ChildProcess,
  log: () => string,
): Promise<pg.Client | null> {
  if (!(await serverReady(server, log))) return null;
  // ready, by its own log: a connection that still fails is retried a few times, then reported
  for (let attempt = 0; ; attempt++) {
    if (server.exitCode !== null || server.signalCode !== null) return null;
    // over the socket in its folder: whatever pg_hba.conf asks of TCP, and only ever this server
    const client = new pg.Client({
      host: path.dirname(data),
      port,
      user: 'arena',
      database: 'postgres',
    });
    try {
      await client.connect();
      // another test file's server may hold the port: only ours has our data folder
      const { rows } = await client.query<{ dir: string }>(
        "SELECT current_setting('data_directory') AS dir",
      );
      if (rows[0]?.dir !== data) {
        await client.end();
        return null;
      }
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (attempt === 20) {
        throw new Error(
          `postgres logged ready on 127.0.0.1:${port} but refused connections (${String(error)}): ${logTail(log())}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Start a throw-away PostgreSQL server for one test file: `initdb` into a
 * temporary folder (trust auth, superuser `arena`), `postgres` on 127.0.0.1
 * and a free port, fsync off (its data is thrown away).
 */
export async function startTestPostgres(options: TestPostgresOptions = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const user = serverUser();
  const folder = mkdtempSync(path.join(tmpdir(), 'arena-pg-'));
  try {
    return await startInFolder(folder, bin, user, options);
  } catch (error) {
    // A server that never came up is not handed out, so nobody else would remove its folder.
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

async function startInFolder(
  folder: string,
  bin: string,
  user: { uid: number; gid: number } | null,
  options: TestPostgresOptions,
): Promise<TestPostgres> {
  const data = path.join(folder, 'data');
  const asUser = user === null ? {} : { uid: user.uid, gid: user.gid };
  if (user !== null) {
    chownSync(folder, user.uid, user.gid);
    chmodSync(folder, 0o700);
  }
  try {
    execFileSync(
      path.join(bin, 'initdb'),
      ['-D', data, '-U', 'arena', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
      { ...asUser, stdio: 'pipe' },
    );
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`initdb failed in ${data}: ${logTail(`${stdout ?? ''}${stderr ?? ''}`)}`, {
      cause: error,
    });
  }
  // one role that must give a password (scram), to test refused credentials; everyone else is trusted
  const hba = path.join(data, 'pg_hba.conf');
  const local = readFileSync(hba, 'utf8');
  writeFileSync(
    hba,
    options.hba === undefined
      ? `host all ${passwordUser} 127.0.0.1/32 scram-sha-256\n${local}`
      : [...options.hba, ...local.split('\n').filter((line) => line.startsWith('local'))].join(
          '\n',
        ),
  );
  const tlsSettings: string[] = [];
  if (options.tls !== undefined) {
    const cert = path.join(folder, 'server.crt');
    const key = path.join(folder, 'server.key');
    writeFileSync(cert, readFileSync(options.tls.cert));
    writeFileSync(key, readFileSync(options.tls.key), { mode: 0o600 });
    if (user !== null) for (const file of [cert, key]) chownSync(file, user.uid, user.gid);
    tlsSettings.push('-c', 'ssl=on', '-c', `ssl_cert_file=${cert}`, '-c', `ssl_key_file=${key}`);
    if (options.tls.ca !== undefined) tlsSettings.push('-c', `ssl_ca_file=${options.tls.ca}`);
  }
  let output = '';
  const spawnServer = (port: number) => {
    const from = output.length;
    const server = spawn(
      path.join(bin, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        folder,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        `synchronous_commit=${options.crashSafe === true ? 'on' : 'off'}`,
        '-c',
        'full_page_writes=off',
        ...tlsSettings,
        ...(options.settings ?? []).flatMap((setting) => ['-c', setting]),
      ],
      { ...asUser, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    server.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    return { server, exited, log: () => output.slice(from) };
  };
  let started: {
    port: number;
    server: ChildProcess;
    exited: Promise<void>;
    admin: pg.Client;
  } | null = null;
  for (let attempt = 0; started === null; attempt++) {
    if (attempt === 5) {
      throw new Error(`postgres did not start on a free port in 5 tries: ${logTail(output)}`);
    }
    const port = await freePort();
    const { server, exited, log } = spawnServer(port);
    const admin = await connectWhenReady(port, data, server, log);
    if (admin !== null) started = { port, server, exited, admin };
    else {
      if (server.exitCode === null && server.pid !== undefined) process.kill(server.pid, 'SIGINT');
      await exited;
    }
  }
  const { port } = started;
  let { server, exited, admin } = started;
  // a restart ends the admin session: that is expected, not an unhandled error
  admin.on('error', () => undefined);
  try {
    await admin.query(
      `CREATE ROLE ${passwordUser} LOGIN SUPERUSER PASSWORD '${passwordUserPassword}'`,
    );
  } catch (error) {
    await admin.end().catch(() => undefined);
    if (server.exitCode === null && server.pid !== undefined) process.kill(server.pid, 'SIGINT');
    await exited;
    throw error;
  }
  return {
    port,
    async createDatabase(name) {
      await admin.query(`CREATE DATABASE "${name}"`);
      return `postgres://arena@127.0.0.1:${port}/${name}`;
    },
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      return (await admin.query(sql, params as unknown[])).rows as Row[];
    },
    async restart({ mode, downMs = 0 }) {
      await admin.end().catch(() => undefined);
      if (server.exitCode === null && server.pid !== undefined) {
        process.kill(server.pid, mode === 'immediate' ? 'SIGQUIT' : 'SIGINT');
      }
      await exited;
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      const again = spawnServer(port);
      const ready = await connectWhenReady(port, data, again.server, again.log);
      if (ready === null) {
        throw new Error(`postgres did not start again on ${port}: ${logTail(again.log())}`);
      }
      ({ server, exited } = again);
      admin = ready;
      admin.on('error', () => undefined);
    },
    async stop() {
      await admin.end().catch(() => undefined);
      // SIGINT: PostgreSQL's fast shutdown (ends open sessions, then exits)
      if (server.exitCode === null && server.pid !== undefined) process.kill(server.pid, 'SIGINT');
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
