import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/ports/store/sqlite/sqliteStore.js';
import { runArena } from '../support/cli.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import {
  killAll,
  queueExperiment,
  readStore,
  spawnWorker,
  submit,
  type WorkerProcess,
  waitUntil,
} from '../support/queueFleet.js';

let server: NatsServer;
let workers: WorkerProcess[] = [];

/** A worker with short leases: a deferred run comes back after one lease length. */
function worker(
  name: string,
  experiment: { folder: string; store: string },
  options: { leaseTtlMs: number; extra?: readonly string[] },
): WorkerProcess {
  const started = spawnWorker(
    [
      '--nats',
      server.url,
      '--store',
      `sqlite:${experiment.store}`,
      '--name',
      name,
      '--judge-concurrency',
      '0',
      ...(options.extra ?? []),
    ],
    { cwd: experiment.folder, env: { ARENA_LEASE_TTL_MS: String(options.leaseTtlMs) } },
  );
  workers.push(started);
  return started;
}

/** Messages still on the run queue's stream (a work queue: an acked one is gone). */
async function queuedMessages(): Promise<number> {
  const nc = await connect({ servers: server.url });
  try {
    return (await (await jetstreamManager(nc)).streams.info('ARENA_RUNS')).state.messages;
  } finally {
    await nc.close();
  }
}

const onlyRun = (store: string) => readStore(store, (opened) => opened.listRuns()[0]);

describe('a queued run that cannot run', () => {
  beforeEach(async () => {
    server = await startNatsServer();
  });
  afterEach(async () => {
    // nothing is left running: every worker this test started, then the server, by pid
    await killAll(workers);
    workers = [];
    await server.dispose();
  });

  it('fails after --max-deliveries deliveries when its module is missing: submit --wait exits 1, arena show names the cause', async () => {
    const experiment = queueExperiment(0);
    const waiting = submit(experiment.runFile, {
      nats: server.url,
      store: experiment.store,
      cwd: experiment.folder,
      extra: ['--wait'],
    });
    // validated and queued with its module; then the module goes, before any worker starts it
    await waitUntil('the run is queued', () => onlyRun(experiment.store)?.status === 'queued');
    const module = path.join(experiment.folder, 'components.js');
    rmSync(module);
    const w1 = worker('w1', experiment, { leaseTtlMs: 500, extra: ['--max-deliveries', '3'] });
    const waited = await waiting;
    const runId = onlyRun(experiment.store)?.runId as string;
    const cause = `ModuleMissingError: run '${runId}' cannot run on this worker: its module ${module} is not there (it was when the run was submitted)`;
    expect(waited.code, `${waited.stderr}\nworker: ${w1.stderr()}`).toBe(1);
    expect(waited.stdout).toContain(`run ${runId}: failed`);
    expect(waited.stdout).toContain(`${cause}; gave up after 3 deliveries`);
    await waitUntil('w1 printed the failure', () => w1.stderr().includes('failed after 3'));
    expect(w1.stderr()).toContain(`w1: run ${runId} deferred (delivery 1 of at most 3): ${cause}`);
    expect(w1.stderr()).toContain(`w1: run ${runId} deferred (delivery 2 of at most 3): ${cause}`);
    expect(w1.stderr()).toContain(`w1: run ${runId} failed after 3 deliveries: ${cause}`);
    expect(readStore(experiment.store, (store) => store.getRun(runId))).toMatchObject({
      status: 'failed',
      error: `${cause}; gave up after 3 deliveries`,
      lease: null,
    });
    const shown = await runArena(['show', runId, '--store', `sqlite:${experiment.store}`], {
      cwd: experiment.folder,
    });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(cause);
    // acked: it never comes back, and the worker says so when it stops
    await waitUntil('the queue is empty', async () => (await queuedMessages()) === 0, {
      attempts: 50,
    });
    w1.child.kill('SIGTERM');
    expect((await w1.exited).code).toBe(0);
    expect(w1.stderr()).toContain(
      'arena worker w1: stopped (0 ended, 0 handed back, 2 deferred, 0 dropped, 1 failed (could not run))',
    );
    expect(w1.stderr().match(/ taken /g)).toHaveLength(3);
  });

  it('keeps deferring a run leased by another process past --max-deliveries, and runs it once the lease is free', async () => {
    const experiment = queueExperiment(0);
    const submitted = await submit(experiment.runFile, {
      nats: server.url,
      store: experiment.store,
      cwd: experiment.folder,
    });
    expect(submitted.code, submitted.stderr).toBe(0);
    const runId = submitted.stdout.trim();
    const store = openSqliteStore(experiment.store);
    const lease = store.acquireLease(runId, {
      owner: { id: 'elsewhere', host: 'another-host', pid: 1 },
      ttlMs: 120_000,
    });
    store.close();
    const w1 = worker('w1', experiment, { leaseTtlMs: 1000, extra: ['--max-deliveries', '2'] });
    await waitUntil('w1 deferred it past the bound', () =>
      w1.stderr().includes(`run ${runId} deferred (delivery 3): RunLeasedError`),
    );
    expect(w1.stderr()).toMatch(
      new RegExp(
        `run ${runId} deferred \\(delivery 1\\): RunLeasedError: run '${runId}' is being run by elsewhere`,
      ),
    );
    expect(w1.stderr()).not.toContain('failed after');
    expect(onlyRun(experiment.store)).toMatchObject({ status: 'queued', error: null });
    const again = openSqliteStore(experiment.store);
    again.releaseLease(lease);
    again.close();
    await waitUntil('the run succeeded', () => onlyRun(experiment.store)?.status === 'succeeded');
    // the worker says so just after the store does: its line may still be on its way
    await waitUntil('w1 said the run succeeded', () =>
      w1.stderr().includes(`w1: run ${runId} succeeded`),
    );
  });
});

describe('arena worker --max-deliveries', () => {
  it.each([
    [
      ['--max-deliveries', '0'],
      {},
      "--max-deliveries must be a whole number from 1 to 1000, got '0'",
    ],
    [
      ['--max-deliveries', 'five'],
      {},
      "--max-deliveries must be a whole number from 1 to 1000, got 'five'",
    ],
    [
      ['--max-deliveries', '2.5'],
      {},
      "--max-deliveries must be a whole number from 1 to 1000, got '2.5'",
    ],
    [
      ['--max-deliveries', '1e15'],
      {},
      "--max-deliveries must be a whole number from 1 to 1000, got '1e15'",
    ],
    [
      ['--concurrency', '1e15'],
      {},
      "--concurrency must be a whole number from 1 to 1024, got '1e15'",
    ],
    [
      ['--max-in-progress', '1e15'],
      {},
      "--max-in-progress must be a whole number from 1 to 1000000, got '1e15'",
    ],
    [
      ['--judge-concurrency', '1e15'],
      {},
      "--judge-concurrency must be a whole number from 0 to 1024, got '1e15'",
    ],
    [
      [],
      { ARENA_MAX_DELIVERIES: '-1' },
      "ARENA_MAX_DELIVERIES must be a whole number from 1 to 1000, got '-1'",
    ],
  ])('refuses %j %j with exit 2 before it connects anywhere', async (args, env, message) => {
    // nothing listens on port 1: a worker that got past the check would fail to connect (exit 1)
    const folder = mkdtempSync(path.join(tmpdir(), 'arena-worker-options-'));
    const result = await runArena(['worker', '--nats', 'nats://127.0.0.1:1', ...args], {
      cwd: folder,
      env,
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(message);
    // refused before anything was opened: no store was created
    expect(readdirSync(folder)).toEqual([]);
    rmSync(folder, { recursive: true });
  });
});
