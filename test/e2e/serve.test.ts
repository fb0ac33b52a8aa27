import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runArena } from '../support/cli.js';
import { remoteRunFile, type ServeProcess, startServe } from '../support/componentServer.js';
import { manualText } from '../support/manual.js';
import { moduleLog } from '../support/moduleLog.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import {
  allSucceeded,
  cli,
  fleetEnv,
  killAll,
  queueExperiment,
  readStore,
  spawnWorker,
  startWorker,
  storedEpisodes,
  submit,
  waitUntil,
} from '../support/queueFleet.js';
import { runRecords } from '../support/records.js';

let server: NatsServer;
let served: ServeProcess[] = [];
beforeEach(async () => {
  server = await startNatsServer();
});
afterEach(async () => {
  // nothing is left running: every arena serve this test started, then the server, by pid
  await killAll(served);
  served = [];
  await server.dispose();
});

async function serve(component: string, service: string, cwd: string, instances = 1) {
  const started = await startServe({ component, service, nats: server.url, cwd, instances });
  served.push(started);
  return started;
}

const onlyRunId = (store: string) =>
  readStore(store, (opened) => opened.listRuns()[0]?.runId as string);
const recordsOf = (store: string) =>
  readStore(store, (opened) => runRecords(opened, opened.listRuns()[0]?.runId as string));

/** `arena run` of the experiment's local run file: the records a remote run must equal. */
async function localRecords(experiment: { folder: string; runFile: string }) {
  const store = path.join(experiment.folder, 'local.db');
  const run = await runArena(['run', experiment.runFile, '--store', `sqlite:${store}`], {
    cwd: experiment.folder,
  });
  expect(run.code, run.stderr).toBe(0);
  return recordsOf(store);
}

describe('arena serve and nats:<service> components', () => {
  it('a run whose environment and brain are served gives exactly the records of the local run', async () => {
    const experiment = queueExperiment(0);
    const expected = await localRecords(experiment);
    await serve('./components.js:SlowLine', 'line-sim', experiment.folder, 2);
    await serve('./components.js:GainBrain', 'gain', experiment.folder);
    const runFile = remoteRunFile(experiment.folder, {
      './components.js:SlowLine': 'line-sim',
      './components.js:GainBrain': 'gain',
    });
    const store = path.join(experiment.folder, 'remote.db');
    const run = await runArena(
      ['run', runFile, '--nats', server.url, '--store', `sqlite:${store}`],
      {
        cwd: experiment.folder,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/: succeeded \(seed 11\)/);
    const records = recordsOf(store);
    expect(records.episodes.length).toBeGreaterThan(3);
    expect(records).toEqual(expected);
  });

  it('ARENA_NATS and ARENA_STORE stand in for --nats and --store in serve, run, submit and worker', async () => {
    const experiment = queueExperiment(0);
    const expected = await localRecords(experiment);
    const started = await startServe({
      component: './components.js:SlowLine',
      service: 'line-env',
      cwd: experiment.folder,
      env: { ARENA_NATS: server.url },
    });
    served.push(started);
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-env' });
    const ranStore = path.join(experiment.folder, 'ran.db');
    const ran = await runArena(['run', runFile], {
      cwd: experiment.folder,
      env: { ARENA_NATS: server.url, ARENA_STORE: `sqlite:${ranStore}` },
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(recordsOf(ranStore)).toEqual(expected);

    const queuedStore = path.join(experiment.folder, 'queued.db');
    const env = { ...fleetEnv, ARENA_NATS: server.url, ARENA_STORE: `sqlite:${queuedStore}` };
    const worker = spawnWorker(['--name', 'w-env'], { cwd: experiment.folder, env });
    try {
      const waited = await runArena(['submit', runFile, '--wait', '--json'], {
        cwd: experiment.folder,
        env,
      });
      expect(waited.code, `${waited.stderr}\nworker: ${worker.stderr()}`).toBe(0);
      expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'succeeded' });
      expect(recordsOf(queuedStore)).toEqual(expected);
      expect(worker.stderr()).toContain(`arena worker w-env: taking runs from ${server.url}`);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });

  it('a queued run whose environment is served runs on a worker with the records of the local run', async () => {
    const experiment = queueExperiment(0);
    const expected = await localRecords(experiment);
    await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-sim' });
    const store = path.join(experiment.folder, 'queued.db');
    const worker = startWorker({ nats: server.url, store, name: 'w1', cwd: experiment.folder });
    try {
      const submitted = await submit(runFile, {
        nats: server.url,
        store,
        cwd: experiment.folder,
        extra: ['--wait'],
      });
      expect(submitted.code, submitted.stderr).toBe(0);
      expect(recordsOf(store)).toEqual(expected);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });

  it('a service SIGKILLed while a worker runs the queued run: the worker defers it and, with the service back, the run ends with the records of the local run', async () => {
    const experiment = queueExperiment(3);
    const expected = await localRecords(experiment);
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-sim' });
    const first = await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
    const store = path.join(experiment.folder, 'queued.db');
    const worker = spawnWorker(
      ['--nats', server.url, '--store', `sqlite:${store}`, '--name', 'w1'],
      // a request in flight to the killed service times out sooner than the default 10 s
      { cwd: experiment.folder, env: { ...fleetEnv, ARENA_REMOTE_TIMEOUT_MS: '1500' } },
    );
    try {
      const submitted = await submit(runFile, { nats: server.url, store, cwd: experiment.folder });
      expect(submitted.code, submitted.stderr).toBe(0);
      const runId = submitted.stdout.trim();
      await waitUntil('the worker has stored 4 episodes', () => storedEpisodes(store, runId) >= 4, {
        everyMs: 20,
      });
      first.child.kill('SIGKILL');
      await first.exited;
      await waitUntil('the worker deferred the run', () =>
        worker.stderr().includes(`run ${runId} deferred`),
      );
      expect(worker.stderr()).toContain('line-sim');
      await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
      await waitUntil('the run succeeded', () => allSucceeded(store, 1));
      expect(recordsOf(store)).toEqual(expected);
      expect(readStore(store, (opened) => opened.resumes(runId).length)).toBeGreaterThanOrEqual(1);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });

  it('arena run on SQLite loads nothing of NATS or PostgreSQL; a run file with a nats: component loads the NATS client', async () => {
    const experiment = queueExperiment(0);
    const local = moduleLog(experiment.folder, 'local');
    const ran = await runArena(['run', experiment.runFile, '--store', 'sqlite:local.db'], {
      cwd: experiment.folder,
      env: { ...local.env, ARENA_NATS: server.url },
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(local.loaded()).toContain('better-sqlite3');
    // The `arena` bundle has a chunk per dynamically loaded module, named after it.
    expect(local.loaded()).not.toMatch(
      /@nats-io|\/chunks\/(?:jetStream|remoteComponents|componentService|postgres)|node_modules\/pg\//,
    );

    await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-sim' });
    const remote = moduleLog(experiment.folder, 'remote');
    const served = await runArena(
      ['run', runFile, '--nats', server.url, '--store', 'sqlite:remote.db'],
      { cwd: experiment.folder, env: remote.env },
    );
    expect(served.code, served.stderr).toBe(0);
    expect(remote.loaded()).toMatch(/@nats-io\/transport-node/);
    expect(remote.loaded()).toMatch(/\/chunks\/remoteComponents-\w+\.js/);
  });

  it('a run file with a nats: component and no --nats is bad input, exit 2, nothing stored', async () => {
    const experiment = queueExperiment(0);
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-sim' });
    const run = await runArena(['run', runFile, '--store', `sqlite:${experiment.store}`], {
      cwd: experiment.folder,
      env: { ARENA_NATS: '' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'schedule[0].train.environments[0].environment: nats:line-sim is a remote component: name the NATS server with --nats <url> (or ARENA_NATS)',
    );
    expect(existsSync(experiment.store)).toBe(false);
  });

  /** `arena run` of a run file whose environment is served, with its output collected. */
  function remoteRun(runFile: string, store: string, cwd: string, env: NodeJS.ProcessEnv = {}) {
    const arena = spawn(
      process.execPath,
      [cli, 'run', runFile, '--nats', server.url, '--store', `sqlite:${store}`],
      {
        cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        // a request in flight to a killed service times out sooner than the default 10 s
        env: { ...process.env, ARENA_REMOTE_TIMEOUT_MS: '1500', ...env },
      },
    );
    let output = '';
    arena.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    arena.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const ended = new Promise<number | null>((resolve) => arena.on('close', resolve));
    return { ended, output: () => output };
  }

  it('a service SIGKILLed mid-run: the run goes back to its last barrier, waits, and continues when the service is back, with the records of an uninterrupted run', async () => {
    const experiment = queueExperiment(3);
    const expected = await localRecords(experiment);
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-sim' });
    const first = await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
    const store = experiment.store;
    const run = remoteRun(runFile, store, experiment.folder);
    await waitUntil(
      'the remote run has stored 4 episodes',
      () => storedEpisodes(store, onlyRunId(store)) >= 4,
      {
        everyMs: 20,
      },
    );
    first.child.kill('SIGKILL');
    await waitUntil('the run to say it waits at its last barrier', () =>
      run.output().includes('is back at its last barrier; resuming it when the service answers'),
    );
    expect(run.output()).toContain('service "line-sim"');
    await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
    expect(await run.ended, run.output()).toBe(0);
    expect(recordsOf(store)).toEqual(expected);
  });

  it('a service that stays away: the run gives up after ARENA_REMOTE_WAIT_MS, resumable; resumed with the service back, the records equal an uninterrupted run', async () => {
    const experiment = queueExperiment(3);
    const expected = await localRecords(experiment);
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-sim' });
    const first = await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
    const store = experiment.store;
    const run = remoteRun(runFile, store, experiment.folder, { ARENA_REMOTE_WAIT_MS: '0' });
    await waitUntil(
      'the remote run has stored 4 episodes',
      () => storedEpisodes(store, onlyRunId(store)) >= 4,
      {
        everyMs: 20,
      },
    );
    first.child.kill('SIGKILL');
    expect(await run.ended, run.output()).toBe(1);
    const runId = onlyRunId(store);
    expect(run.output()).toContain(`once the service is back: arena run --resume ${runId}`);
    expect(readStore(store, (opened) => opened.getRun(runId).status)).toBe('running');

    await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
    const resumed = await runArena(
      ['run', '--resume', runId, '--nats', server.url, '--store', `sqlite:${store}`],
      {
        cwd: experiment.folder,
      },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(recordsOf(store)).toEqual(expected);
  });

  it('survives a NATS server restart mid-run: requests are retried by identity, the records equal the local run', async () => {
    const experiment = queueExperiment(3);
    const expected = await localRecords(experiment);
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-sim' });
    await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
    const store = experiment.store;
    const arena = spawn(
      process.execPath,
      [cli, 'run', runFile, '--nats', server.url, '--store', `sqlite:${store}`],
      {
        cwd: experiment.folder,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ARENA_REMOTE_TIMEOUT_MS: '2000' },
      },
    );
    let output = '';
    arena.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const ended = new Promise<number | null>((resolve) => arena.on('close', resolve));
    await waitUntil(
      'the remote run has stored 4 episodes',
      () => storedEpisodes(store, onlyRunId(store)) >= 4,
      { everyMs: 20 },
    );
    await server.stop();
    // the run was mid-way when the server went down
    expect(storedEpisodes(store, onlyRunId(store))).toBeLessThan(expected.episodes.length);
    await server.start();
    expect(await ended, output).toBe(0);
    expect(recordsOf(store)).toEqual(expected);
  });

  it("README: the shipped remote example without --nats prints the README's line", async () => {
    const run = await runArena(['run', 'examples/remote-environment.yaml'], {
      env: { ARENA_NATS: '' },
    });
    expect(run.code).toBe(2);
    const readme = manualText();
    expect(readme).toContain(`$ npx arena run examples/remote-environment.yaml\n${run.stderr}`);
  });

  it('a served export that is not what its place needs fails the phase with the contract error', async () => {
    const experiment = queueExperiment(0);
    await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
    const runFile = remoteRunFile(experiment.folder, { './components.js:GainBrain': 'line-sim' });
    const run = await runArena(
      ['run', runFile, '--nats', server.url, '--store', `sqlite:${experiment.store}`],
      { cwd: experiment.folder },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'open in service "line-sim" failed: ComponentContractError: <component> (./components.js:SlowLine): is not a brain: it lacks setup(), act(), observe(), endEpisode(), evaluateRollouts()',
    );
  });

  it('drains on SIGTERM and exits 0', async () => {
    const experiment = queueExperiment(0);
    const running = await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
    running.child.kill('SIGTERM');
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(running.stderr()).toContain('arena serve: stopped');
  });

  it('rejects a component that does not resolve and a bad service name, exit 2', async () => {
    const experiment = queueExperiment(0);
    const missing = await runArena(
      ['serve', './components.js:Nope', '--nats', server.url, '--as', 'line-sim'],
      { cwd: experiment.folder },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/has no export "Nope" \(its exports: GainBrain, SlowLine\)/);
    const badName = await runArena(
      ['serve', './components.js:SlowLine', '--nats', server.url, '--as', 'line sim'],
      { cwd: experiment.folder },
    );
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain('--as: expected nats:<service>');
  });
});
