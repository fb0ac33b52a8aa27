import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import {
  fleetEnv,
  killAll,
  readStore,
  spawnWorker,
  submit,
  type WorkerProcess,
  waitUntil,
} from '../support/queueFleet.js';
import { scratchFolder } from '../support/scratch.js';

// Real nats-server, real `arena submit` and `arena worker` processes. The worker's working
// folder is `project/`; `outside/` holds a module that leaves a marker when a worker imports it.

let server: NatsServer;
const workers: WorkerProcess[] = [];
let root: string;
let project: string;
let outside: string;
let store: string;
const marker = () => path.join(root, 'imported-by-a-worker');

/** A module of the repository that writes `marker` when a worker process imports it. */
function markingModule(source: string): string {
  const module = readFileSync(path.join(repoRoot, source), 'utf8');
  // arena submit and arena judge import it too (to validate): only an import by a worker counts
  return `import { writeFileSync } from 'node:fs';\nif (process.argv.includes('worker')) writeFileSync(${JSON.stringify(marker())}, process.argv.join(' '));\n${module}`;
}

/** A copy of the slow run file in `folder`, its components named `modulePath`. */
function runFileIn(folder: string, name: string, modulePath: string): string {
  const text = readFileSync(path.join(repoRoot, 'test/fixtures/runs/slow/run.yaml'), 'utf8')
    .replaceAll('./components.js', modulePath)
    .replace('delay_ms: 1', 'delay_ms: 0');
  const file = path.join(folder, `${name}.yaml`);
  writeFileSync(file, text);
  return file;
}

function startWorker(name: string, extra: readonly string[] = []): WorkerProcess {
  const args = ['--nats', server.url, '--store', `sqlite:${store}`, '--name', name];
  const started = spawnWorker([...args, '--judge-concurrency', '0', ...extra], {
    cwd: project,
    env: fleetEnv,
  });
  workers.push(started);
  return started;
}

async function submitted(runFile: string): Promise<string> {
  const result = await submit(runFile, { nats: server.url, store, cwd: project });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
}

const runOf = (runId: string) => readStore(store, (opened) => opened.getRun(runId));
const ended = (runId: string) => ['succeeded', 'failed'].includes(runOf(runId).status);

async function queuedMessages(): Promise<number> {
  const nc = await connect({ servers: server.url });
  try {
    return (await (await jetstreamManager(nc)).streams.info('ARENA_RUNS')).state.messages;
  } finally {
    await nc.close();
  }
}

beforeAll(async () => {
  server = await startNatsServer();
  root = scratchFolder('arena-modules-');
  project = path.join(root, 'project');
  outside = path.join(root, 'outside');
  mkdirSync(project);
  mkdirSync(outside);
  cpSync(path.join(repoRoot, 'test/fixtures/runs/slow/components.js'), `${project}/components.js`);
  writeFileSync(
    path.join(outside, 'outside.js'),
    markingModule('test/fixtures/runs/slow/components.js'),
  );
  // an agent judge whose config and agent module are outside the project
  for (const file of ['agent.yaml', 'cases.jsonl']) {
    cpSync(path.join(repoRoot, 'examples/judge', file), path.join(outside, file));
  }
  writeFileSync(
    path.join(outside, 'reviewer-agent.js'),
    markingModule('examples/judge/reviewer-agent.js'),
  );
  // a folder of the project that is really somewhere else
  symlinkSync(outside, path.join(project, 'linked'));
  store = path.join(project, 'runs.db');
});

afterAll(async () => {
  await killAll(workers);
  await server?.dispose();
});

describe('arena worker imports run modules only from its folders', () => {
  it('fails a run naming a module outside its working folder at its first delivery, never importing it, and runs one under it', async () => {
    const refused = [
      // ../ out of the project
      [runFileIn(project, 'up', '../outside/outside.js'), path.join(outside, 'outside.js'), ''],
      // a run file (and so its module's absolute path) outside the project
      [runFileIn(outside, 'elsewhere', './outside.js'), path.join(outside, 'outside.js'), ''],
      // a symlink inside the project pointing outside
      [
        runFileIn(project, 'linked', './linked/outside.js'),
        path.join(project, 'linked/outside.js'),
        ` (real path ${path.join(outside, 'outside.js')})`,
      ],
    ] as const;
    const refusedIds: string[] = [];
    for (const [runFile] of refused) refusedIds.push(await submitted(runFile));
    const insideId = await submitted(runFileIn(project, 'inside', './components.js'));
    const worker = startWorker('w1');
    await waitUntil('every run ended', () => [...refusedIds, insideId].every(ended));

    refused.forEach(([, module, real], index) => {
      const runId = refusedIds[index] as string;
      const reason = `ModuleNotAllowedError: module ${module}${real} is outside the folders this worker imports modules from: ${project} (widen with arena worker --modules DIR)`;
      expect(runOf(runId)).toMatchObject({ status: 'failed', error: reason, lease: null });
      expect(worker.stderr()).toContain(`w1: run ${runId} failed after 1 delivery: ${reason}`);
    });
    expect(runOf(insideId).status).toBe('succeeded');
    expect(existsSync(marker())).toBe(false);
    // each refused run was acked at its first delivery: nothing is left on the queue
    await waitUntil('the queue is empty', async () => (await queuedMessages()) === 0, {
      attempts: 50,
    });
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
    expect(worker.stderr()).toContain(
      'arena worker w1: stopped (1 ended, 0 handed back, 0 deferred, 0 dropped, 3 failed (could not run))',
    );
    expect(worker.stderr().match(/ taken /g)).toHaveLength(4);
  });

  it("fails an evaluation run whose agent judge's module is outside the worker's folders, never importing it", async () => {
    const worker = startWorker('w3', ['--judge-concurrency', '1']);
    const judged = await runArena(
      [
        'judge',
        path.join(outside, 'cases.jsonl'),
        '--config',
        path.join(outside, 'agent.yaml'),
        '--nats',
        server.url,
        '--store',
        `sqlite:${store}`,
        '--wait',
      ],
      { cwd: project },
    );
    const module = path.join(outside, 'reviewer-agent.js');
    expect(judged.code, `${judged.stderr}\nworker: ${worker.stderr()}`).toBe(2);
    expect(judged.stderr).toContain(
      `module ${module} is outside the folders this worker imports modules from: ${project} (widen with arena worker --modules DIR)`,
    );
    expect(existsSync(marker())).toBe(false);
    worker.child.kill('SIGTERM');
    await worker.exited;
  });

  it('runs a module under a --modules folder', async () => {
    const runId = await submitted(runFileIn(outside, 'allowed', './outside.js'));
    const worker = startWorker('w2', ['--modules', outside]);
    await waitUntil('the run ended', () => ended(runId));
    expect(runOf(runId).status, worker.stderr()).toBe('succeeded');
    // the marker works: the module was imported by this worker
    expect(readFileSync(marker(), 'utf8')).toContain('worker');
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  });

  it('refuses a --modules that is not a folder with one line, exit 2', async () => {
    const missing = path.join(root, 'no-such-folder');
    const result = await runArena(
      ['worker', '--nats', server.url, '--store', `sqlite:${store}`, '--modules', missing],
      { cwd: project },
    );
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`arena: --modules: '${missing}' is not a folder`);
  });
});
