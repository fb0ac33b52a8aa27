import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cli } from './queueFleet.js';

/** A running `arena serve` process. */
export interface ServeProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** The instance ids it printed, one per instance. */
  readonly instanceIds: readonly string[];
}

const instanceIdsIn = (stderr: string): string[] =>
  [...stderr.matchAll(/^arena serve: instance (\w+) /gm)].map((match) => match[1] as string);

/**
 * Start `arena serve <component> --as <service>` in `cwd` and wait until it
 * says it serves; without `nats` the server comes from `env` (ARENA_NATS).
 */
export async function startServe(options: {
  component: string;
  service: string;
  nats?: string;
  cwd: string;
  instances?: number;
  env?: NodeJS.ProcessEnv;
}): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [
      cli,
      'serve',
      options.component,
      ...(options.nats === undefined ? [] : ['--nats', options.nats]),
      '--as',
      options.service,
      '--instances',
      String(options.instances ?? 1),
    ],
    {
      cwd: options.cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...options.env, NO_COLOR: '1' },
    },
  );
  let stderr = '';
  const serving = new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const serving = stderr.includes(`as nats:${options.service} on`);
      if (serving && instanceIdsIn(stderr).length === (options.instances ?? 1)) resolve();
    });
    child.once('close', () => reject(new Error(`arena serve exited before serving: ${stderr}`)));
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  await serving;
  return { child, exited, stderr: () => stderr, instanceIds: instanceIdsIn(stderr) };
}

/**
 * Write `remote.yaml` beside `run.yaml`: the same run with the components of
 * `replace` (a `name:` value -> `nats:<service>`) named as remote services.
 */
export function remoteRunFile(folder: string, replace: Readonly<Record<string, string>>): string {
  let text = readFileSync(path.join(folder, 'run.yaml'), 'utf8');
  for (const [local, service] of Object.entries(replace)) {
    if (!text.includes(`name: ${local}`)) throw new Error(`run.yaml names no ${local}`);
    text = text.replaceAll(`name: ${local}`, `name: nats:${service}`);
  }
  const file = path.join(folder, 'remote.yaml');
  writeFileSync(file, text);
  return file;
}
