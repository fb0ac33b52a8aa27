import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hangGuard } from './hangGuard.js';

/** The command that installs nats-server where the tests cannot do it themselves. */
export const natsInstallHint = 'apt-get install -y nats-server (or put nats-server on PATH)';

/** `nats-server` found on PATH, or `null`. */
export function findNatsServer(): string | null {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter)) {
    if (folder === '') continue;
    const candidate = path.join(folder, 'nats-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** A nats-server with JetStream on 127.0.0.1, started for one test file. */
export interface NatsServer {
  readonly url: string;
  readonly port: number;
  /** Its JetStream store folder (kept across `restart`). */
  readonly storeDir: string;
  /** The running server's pid, or `null` while it is stopped. */
  pid(): number | null;
  /** Stop it (SIGTERM, then SIGKILL) and wait until it has exited. */
  stop(): Promise<void>;
  /** Kill it (SIGKILL: no clean shutdown, its store folder kept as the crash left it) and wait until it has exited. */
  kill(): Promise<void>;
  /** Start it again on the same port and store folder (`lostStore`: with that folder removed first, as on a new disk). */
  start(options?: { lostStore?: boolean }): Promise<void>;
  /** Stop it and remove its folder: nothing is left running. */
  dispose(): Promise<void>;
}

/**
 * Start `nats-server -js` on a free loopback port with a temporary store
 * folder and wait until it accepts connections. `maxPayload` sets the
 * server's `max_payload` (bytes; a config file, as it has no flag); `config`
 * is more of that file's text (an `authorization` block, `tls`, accounts).
 */
export async function startNatsServer(
  options: { maxPayload?: number; config?: string } = {},
): Promise<NatsServer> {
  const binary = findNatsServer();
  if (binary === null) throw new Error(`nats-server is not on PATH: run ${natsInstallHint}`);
  const port = await freePort();
  const folder = mkdtempSync(path.join(tmpdir(), 'arena-nats-'));
  const storeDir = path.join(folder, 'js');
  const configArgs: string[] = [];
  if (options.maxPayload !== undefined || options.config !== undefined) {
    const config = path.join(folder, 'nats.conf');
    const payload = options.maxPayload === undefined ? '' : `max_payload: ${options.maxPayload}\n`;
    writeFileSync(config, `${payload}${options.config ?? ''}\n`);
    configArgs.push('-c', config);
  }
  let child: ChildProcess | null = null;

  const start = async (startOptions: { lostStore?: boolean } = {}) => {
    if (startOptions.lostStore === true) rmSync(storeDir, { recursive: true, force: true });
    const args = [...configArgs, '-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir];
    const started = spawn(binary, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    child = started;
    try {
      await waitForJetStream(started, () => log);
    } catch (error) {
      started.kill('SIGKILL');
      throw error;
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  try {
    await start();
  } catch (error) {
    // A server that never came up is not handed out, so nobody else would remove its folder.
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    pid: () => (child as ChildProcess | null)?.pid ?? null,
    stop,
    kill,
    start,
    dispose: async () => {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Wait until the server logs that it is ready (JetStream with it) and its port
 * takes a connection, following its log as it is written; a server that exits
 * first fails at once with its exit and its log's tail. A server that says
 * nothing for `hangGuard(30 s)` counts as hung: the guard is scaled for load,
 * as start-ups slow down on a busy machine.
 */
async function waitForJetStream(child: ChildProcess, log: () => string): Promise<void> {
  const tail = () => log().trim().split('\n').slice(-8).join('\n');
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(guard);
      child.stderr?.off('data', onLog);
      child.off('exit', onExit);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onLog = () => {
      if (log().includes('Server is ready')) done();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      done(new Error(`nats-server exited (${code ?? signal}) before it was ready:\n${tail()}`));
    const guard = setTimeout(
      () => done(new Error(`nats-server was not ready after ${hangGuard(30_000)} ms:\n${tail()}`)),
      hangGuard(30_000),
    );
    child.stderr?.on('data', onLog);
    child.once('exit', onExit);
    if (child.exitCode !== null || child.signalCode !== null)
      onExit(child.exitCode, child.signalCode);
    else onLog();
  });
  // ready and listening: a connection it refuses now is a port taken by another server
  if (!(await accepts(child))) {
    throw new Error(`nats-server logged ready but refuses connections:\n${tail()}`);
  }
}

function accepts(child: ChildProcess): Promise<boolean> {
  const port = Number(child.spawnargs[child.spawnargs.indexOf('-p') + 1]);
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
