import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { hangGuard } from './hangGuard.js';

/** The repository root. */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** What one process (an `arena` run, a shell pipe, npm) printed and how it exited. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Where a process runs, what it reads, and how long it may take. */
export interface ProcessOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Written to its stdin, which is then closed; without it, stdin is ignored. */
  readonly input?: string;
  /** Killed (SIGKILL) after this long; without it, never. */
  readonly timeoutMs?: number;
  /** Run as this user (spawn's `uid`/`gid`), e.g. one who cannot write the files. */
  readonly user?: { uid: number; gid: number };
}

/** A process running in the background, what it printed so far readable while it runs. */
export interface RunningProcess {
  readonly child: ChildProcess;
  /** Settles when it has exited (rejects when it could not start). */
  readonly exited: Promise<CliRun>;
  stdout(): string;
  stderr(): string;
}

/**
 * Start a process and collect what it prints.
 *
 * @example
 * ```ts
 * const running = startProcess(process.execPath, [cli, 'judge', ...args], { cwd });
 * await waitUntil('queued', () => /as evaluation run/.test(running.stderr()));
 * ```
 */
export function startProcess(
  command: string,
  args: readonly string[],
  options: ProcessOptions,
): RunningProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(options.user ?? {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<CliRun>((resolve, reject) => {
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/**
 * Run a process to its end and collect what it printed.
 *
 * @example
 * ```ts
 * const { code, stdout } = await runProcess('npm', ['ls'], { cwd: app });
 * ```
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: ProcessOptions,
): Promise<CliRun> {
  return startProcess(command, args, options).exited;
}

/**
 * Run the built `arena` command as a user would (`node cli/bin/arena.js ...`).
 *
 * @example
 * ```ts
 * const { code, stdout } = await runArena(['termination', 'replay', rules, log]);
 * ```
 */
export function runArena(
  args: readonly string[],
  options: {
    cwd?: string;
    input?: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
    /** Run as this user (spawn's `uid`/`gid`), e.g. one who cannot write the files. */
    user?: { uid: number; gid: number };
    /** The `arena.js` to run: the checkout's `cli/bin/arena.js` unless given (a copy, see arenaForOtherUser). */
    bin?: string;
  } = {},
): Promise<CliRun> {
  const bin = options.bin ?? path.join(repoRoot, 'cli/bin/arena.js');
  return runProcess(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    input: options.input ?? '',
    timeoutMs: options.timeoutMs ?? hangGuard(55_000),
    ...(options.user !== undefined ? { user: options.user } : {}),
  });
}
