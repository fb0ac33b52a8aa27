import { spawn } from 'node:child_process';
import path from 'node:path';

/** The repository root. */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** What one `arena` run printed and how it exited. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
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
  } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'cli/bin/arena.js'), ...args], {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.user ?? {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 55_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
