import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { repoRoot, runArena } from '../support/cli.js';
import { remoteRunFile, type ServeProcess, startServe } from '../support/componentServer.js';
import { judgeFixture, judgeFleetEnv, verdictFor } from '../support/judgeFleet.js';
import { manualText } from '../support/manual.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import {
  fleetEnv,
  killAll,
  queueExperiment,
  spawnWorker,
  type WorkerProcess,
} from '../support/queueFleet.js';

// arena's own commands on a NATS server that takes only user arena with its password
const password = 'pw-s3cret-42';
const env = { ARENA_NATS_USER: 'arena', ARENA_NATS_PASSWORD: password };
let nats: NatsServer;
let chat: ChatServer | null = null;
const started: (WorkerProcess | ServeProcess)[] = [];
beforeAll(async () => {
  nats = await startNatsServer({
    config: `authorization { user: arena, password: "${password}" }`,
  });
});
afterAll(async () => {
  await killAll(started);
  await chat?.close();
  await nats?.dispose();
});
const withPassword = (secret: string) => nats.url.replace('nats://', `nats://arena:${secret}@`);
const fixture = (name: string) => path.join(repoRoot, 'test/fixtures/tls', name);

describe('README Credentials', () => {
  it('shows the real line of a creds file that is not there', async () => {
    const args = ['worker', '--nats', 'tls://nats.example:4222', '--nats-creds', 'worker.creds'];
    const result = await runArena(args, { cwd: tmpdir() });
    expect(result.code).toBe(2);
    const readme = manualText();
    expect(readme).toContain(`$ npx arena ${args.join(' ')}\n${result.stderr}\`\`\``);
  });
});

describe('arena on a password-protected NATS server', () => {
  it('arena worker and arena submit --wait run a run with ARENA_NATS_USER and ARENA_NATS_PASSWORD, never printing or storing the password', async () => {
    const experiment = queueExperiment(0);
    const store = `sqlite:${experiment.store}`;
    const worker = spawnWorker(['--nats', nats.url, '--store', store, '--name', 'w-creds'], {
      cwd: experiment.folder,
      env: { ...fleetEnv, ...env },
    });
    started.push(worker);
    const waited = await runArena(
      ['submit', experiment.runFile, '--nats', nats.url, '--store', store, '--wait', '--json'],
      { cwd: experiment.folder, env: { ...fleetEnv, ...env } },
    );
    expect(waited.code, `${waited.stderr}\nworker: ${worker.stderr()}`).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'succeeded' });
    worker.child.kill('SIGTERM');
    await worker.exited;
    expect(worker.stderr()).toContain(`arena worker w-creds: taking runs from ${nats.url}`);
    expect(worker.stderr() + waited.stderr + waited.stdout).not.toContain(password);
    expect(readFileSync(experiment.store).toString('latin1')).not.toContain(password);
  });

  it('arena serve with the password in its URL and arena run naming nats:<service> show it as ***', async () => {
    const experiment = queueExperiment(0);
    const serve = await startServe({
      component: './components.js:SlowLine',
      service: 'line-creds',
      nats: withPassword(password),
      cwd: experiment.folder,
    });
    started.push(serve);
    expect(serve.stderr()).toContain(`as nats:line-creds on ${withPassword('***')}, 1 instance`);
    expect(serve.stderr()).not.toContain(password);
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-creds' });
    const ran = await runArena(
      ['run', runFile, '--nats', nats.url, '--store', `sqlite:${experiment.store}`, '--json'],
      { cwd: experiment.folder, env },
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout + ran.stderr).not.toContain(password);
  });

  it('arena judge --nats --wait is judged by a worker, both with the credentials from env', async () => {
    chat = await startChatServer((request) => verdictFor(request));
    const judging = judgeFixture(chat, 4);
    const store = `sqlite:${path.join(judging.folder, 'judge.db')}`;
    const worker = spawnWorker(
      ['--nats', nats.url, '--store', store, '--name', 'j-creds', '--judge-concurrency', '2'],
      { cwd: judging.folder, env: { ...fleetEnv, ...judgeFleetEnv, ...env } },
    );
    started.push(worker);
    const run = await runArena(
      [
        'judge',
        judging.cases,
        '--config',
        judging.config,
        '--nats',
        nats.url,
        '--store',
        store,
        '--wait',
      ],
      { cwd: judging.folder, env: { ...judgeFleetEnv, ...env } },
    );
    expect(run.code, `${run.stderr}\nworker: ${worker.stderr()}`).toBe(0);
    expect(run.stdout.split('\n').filter((line) => line.includes('"caseId"'))).toHaveLength(4);
    expect(run.stdout + run.stderr + worker.stderr()).not.toContain(password);
  });

  it('a wrong password is one line naming the server with the password as ***, exit 1', async () => {
    const experiment = queueExperiment(0);
    const refused = await runArena(
      [
        'submit',
        experiment.runFile,
        '--nats',
        withPassword('wr0ng-pw'),
        '--store',
        `sqlite:${experiment.store}`,
      ],
      { cwd: experiment.folder },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `arena: the NATS server at ${withPassword('***')} refused the credentials (Authorization Violation)\n`,
    );
    const remote = await runArena(
      ['serve', './components.js:SlowLine', '--nats', nats.url, '--as', 'nobody'],
      {
        cwd: experiment.folder,
        env: { ARENA_NATS_USER: 'arena', ARENA_NATS_PASSWORD: 'wr0ng-pw' },
      },
    );
    expect(remote.code).toBe(1);
    expect(remote.stderr).toBe(
      `arena: the NATS server at ${nats.url} refused the credentials (Authorization Violation)\n`,
    );
  });

  it('a bad credential setting is one line naming the flag or env var and the file, exit 2, before connecting', async () => {
    const experiment = queueExperiment(0);
    const missing = path.join(experiment.folder, 'gone.creds');
    const at = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
      runArena(
        [
          'worker',
          '--nats',
          'nats://127.0.0.1:1',
          '--store',
          `sqlite:${experiment.store}`,
          ...args,
        ],
        {
          cwd: experiment.folder,
          env: extra,
        },
      );
    const noCreds = await at(['--nats-creds', missing]);
    expect([noCreds.code, noCreds.stderr]).toEqual([
      2,
      `arena: --nats-creds: cannot read ${missing} (ENOENT)\n`,
    ]);
    const notCreds = await at([], { ARENA_NATS_CREDS: experiment.runFile });
    expect([notCreds.code, notCreds.stderr]).toEqual([
      2,
      `arena: ARENA_NATS_CREDS: ${experiment.runFile} is not a NATS creds file (a user JWT and an nkey seed, as nsc writes it)\n`,
    ]);
    const certAlone = await at([], { ARENA_NATS_TLS_CERT: fixture('client.pem') });
    expect([certAlone.code, certAlone.stderr]).toEqual([
      2,
      'arena: ARENA_NATS_TLS_CERT: a client certificate needs both its certificate and its key: give --nats-tls-key too\n',
    ]);
    const twice = await runArena(
      [
        'submit',
        experiment.runFile,
        '--nats',
        withPassword(password),
        '--store',
        `sqlite:${experiment.store}`,
      ],
      { cwd: experiment.folder, env: { ARENA_NATS_TOKEN: 'tok-s3cret' } },
    );
    expect([twice.code, twice.stderr]).toEqual([
      2,
      "arena: ARENA_NATS_TOKEN: the --nats URL's user part already gives credentials: give one way to authenticate\n",
    ]);
  });
});
