import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, runArena } from './cli.js';

/** The built CLI the queue tests run. */
export const cli = path.join(repoRoot, 'cli/bin/arena.js');

/**
 * The test fleet's settings, the same for every worker a test starts (a worker at odds with a
 * shared consumer's is refused): short leases (redelivery after 1.5 x the lease) and judge jobs
 * back 2 s after a worker died, long enough for a loaded 2-core machine.
 */
export const fleetEnv = { ARENA_LEASE_TTL_MS: '2000', ARENA_JUDGE_ACK_WAIT_MS: '2000' } as const;

/** A follower's safety-net poll of an hour: only the workers' status hints can end its wait within a test. */
export const hintsOnlyEnv = { ARENA_STATUS_SAFETY_NET_MS: '3600000' } as const;

/**
 * A user's experiment folder: the slow run file (each step sleeps `delayMs`) and its module.
 * With `gated`, every step waits until `openGate()` was called (the file `gate` in the folder
 * exists): runs taken before then hold still, whatever the load, so a test can act on the
 * queue while they are in flight. The gate does not change the records.
 */
export function queueExperiment(
  delayMs: number,
  options: { gated?: boolean } = {},
): {
  folder: string;
  runFile: string;
  store: string;
  openGate(): void;
} {
  const folder = scratchFolder('arena-queue-');
  cpSync(path.join(repoRoot, 'test/fixtures/runs/slow'), folder, { recursive: true });
  const runFile = path.join(folder, 'run.yaml');
  const params = `delay_ms: ${delayMs}${options.gated === true ? ', gate: gate' : ''}`;
  writeFileSync(runFile, readFileSync(runFile, 'utf8').replace('delay_ms: 1', params));
  return {
    folder,
    runFile,
    store: path.join(folder, 'runs.db'),
    openGate: () => writeFileSync(path.join(folder, 'gate'), ''),
  };
}

/** A store file path as `sqlite:PATH`; a `postgres://` (or `sqlite:`) URI as it is. */
function storeUri(store: string): string {
  return /^(postgres|postgresql):\/\/|^sqlite:/.test(store) ? store : `sqlite:${store}`;
}

/** A running `arena worker` process. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/**
 * SIGKILL every process of `processes` still running and wait for each to
 * exit, so that nothing a test started is left running.
 */
export async function killAll(
  processes: readonly { readonly child: ChildProcess; readonly exited: Promise<unknown> }[],
): Promise<void> {
  for (const each of processes) {
    if (each.child.exitCode === null && each.child.signalCode === null) each.child.kill('SIGKILL');
    await each.exited;
  }
}

/** Start `arena worker` against a NATS server and a store. */
export function startWorker(options: {
  nats: string;
  store: string;
  name: string;
  cwd: string;
  concurrency?: number;
}): WorkerProcess {
  return spawnWorker(
    [
      '--nats',
      options.nats,
      '--store',
      storeUri(options.store),
      '--name',
      options.name,
      '--concurrency',
      String(options.concurrency ?? 1),
    ],
    { cwd: options.cwd, env: fleetEnv },
  );
}

/** Start `arena worker <args>` in `cwd` with extra environment; its stderr is kept. */
export function spawnWorker(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): WorkerProcess {
  const child = spawn(process.execPath, [cli, 'worker', ...args], {
    cwd: options.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...options.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stderr: () => stderr };
}

/** `arena submit` a run file; resolves with its exit and output. */
export function submit(
  runFile: string,
  options: {
    nats: string;
    store: string;
    cwd: string;
    extra?: readonly string[];
    env?: NodeJS.ProcessEnv;
  },
) {
  return runArena(
    [
      'submit',
      runFile,
      '--nats',
      options.nats,
      '--store',
      storeUri(options.store),
      ...(options.extra ?? []),
    ],
    { cwd: options.cwd, env: { ...fleetEnv, ...options.env } },
  );
}

import { readStore } from './records.js';
import { scratchFolder } from './scratch.js';

export { readStore };

/** Poll until `check` holds; throws after `attempts` tries (a bound on tries, not a time assertion). */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  options: { attempts?: number; everyMs?: number } = {},
): Promise<void> {
  const attempts = options.attempts ?? 600;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      if (await check()) return;
    } catch {
      // the store may not exist yet
    }
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 100));
  }
  throw new Error(`gave up waiting: ${what}`);
}

/**
 * `waiting`, with what each worker printed (its last 3,000 characters) added
 * to a failure: a fleet that stopped making progress says why.
 */
export async function withWorkerLogs<T>(
  workers: readonly WorkerProcess[],
  waiting: Promise<T>,
): Promise<T> {
  try {
    return await waiting;
  } catch (error) {
    const logs = workers
      .map((worker, index) => {
        const { exitCode, signalCode } = worker.child;
        const state =
          exitCode === null && signalCode === null ? 'up' : `exited ${exitCode ?? signalCode}`;
        return `--- worker ${index + 1} (${state}):\n${worker.stderr().slice(-3000)}`;
      })
      .join('\n');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${logs}`, {
      cause: error,
    });
  }
}

/**
 * Wait until every worker has started: its queues are open and it has put
 * back what the store expects (the line it prints then). A fault before that
 * meets a worker that is still connecting, which exits as any command does
 * when its server is out of reach at the start.
 */
export async function waitForStart(workers: readonly WorkerProcess[]): Promise<void> {
  // events, not a poll budget: a start-up slowed by a loaded machine is waited for (the test's
  // own timeout bounds it), and a worker that exits first fails at once with what it printed
  const started = (worker: WorkerProcess): boolean => /: put back \d+ runs?/.test(worker.stderr());
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          const check = (): void => {
            if (!started(worker)) return;
            worker.child.stderr?.off('data', check);
            resolve();
          };
          worker.child.stderr?.on('data', check);
          check();
          void worker.exited.then(({ code, signal }) => {
            if (!started(worker)) {
              reject(
                new Error(
                  `a worker exited (${code ?? signal}) before it started:\n${worker.stderr()}`,
                ),
              );
            }
          });
        }),
    ),
  );
}

/** How many episodes a run has stored. */
export function storedEpisodes(store: string, runId: string): number {
  return readStore(store, (opened) => opened.episodes(runId).length);
}

/** Whether every run of the store has succeeded (and there are `count` runs). */
export function allSucceeded(store: string, count: number): boolean {
  return readStore(store, (opened) => {
    const runs = opened.listRuns();
    return runs.length === count && runs.every((run) => run.status === 'succeeded');
  });
}
