import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import {
  fleetEnv,
  killAll,
  queueExperiment,
  readStore,
  spawnWorker,
  submit,
  type WorkerProcess,
  waitUntil,
} from '../support/queueFleet.js';
import { type Supervisor, superviseWorkers } from '../support/supervisor.js';

let server: NatsServer;
let supervisor: Supervisor | null = null;
let workers: WorkerProcess[] = [];

const cause = 'gave up after 3 deliveries (the worker died while running it)';

/** The experiment folder, with a second run file whose environment SIGKILLs its own process at its first step. */
function poisonExperiment() {
  const experiment = queueExperiment(0);
  writeFileSync(
    path.join(experiment.folder, 'poison.js'),
    `import { appendFileSync } from 'node:fs';
import { SlowLine } from './components.js';

/** Kills the process that runs it, as a native crash or the OOM killer would; notes each kill first. */
export class PoisonLine extends SlowLine {
  step(actions) {
    appendFileSync(new URL('./kills.log', import.meta.url), \`\${process.pid}\\n\`);
    process.kill(process.pid, 'SIGKILL');
    return super.step(actions);
  }
}
`,
  );
  const poisonRunFile = path.join(experiment.folder, 'poison.yaml');
  writeFileSync(
    poisonRunFile,
    readFileSync(experiment.runFile, 'utf8')
      .replace('uid: slow-line', 'uid: poison-line')
      .replace('./components.js:SlowLine', './poison.js:PoisonLine'),
  );
  const kills = () => {
    try {
      return readFileSync(path.join(experiment.folder, 'kills.log'), 'utf8').trim().split('\n')
        .length;
    } catch {
      return 0;
    }
  };
  return { ...experiment, poisonRunFile, kills };
}

async function consumerAckWaitMs(
  stream = 'ARENA_RUNS',
  consumer = 'arena-workers',
): Promise<number> {
  const nc = await connect({ servers: server.url });
  try {
    const info = await (await jetstreamManager(nc)).consumers.info(stream, consumer);
    return (info.config.ack_wait ?? 0) / 1e6;
  } finally {
    await nc.close();
  }
}

describe('a poison run (its environment kills the worker that runs it)', () => {
  beforeEach(async () => {
    server = await startNatsServer();
  });
  afterEach(async () => {
    await supervisor?.stop();
    supervisor = null;
    await killAll(workers);
    workers = [];
    await server.dispose();
  });

  it('is failed at its --max-deliveries-th delivery while a supervisor restarts the workers it kills; the other runs succeed and the workers are up at the end', async () => {
    const experiment = poisonExperiment();
    const storeArgs = ['--store', `sqlite:${experiment.store}`];
    supervisor = superviseWorkers({
      count: 2,
      cwd: experiment.folder,
      env: fleetEnv,
      args: (name) => [
        '--nats',
        server.url,
        ...storeArgs,
        '--name',
        name,
        '--max-deliveries',
        '3',
        '--judge-concurrency',
        '0',
      ],
    });
    const waiting = submit(experiment.poisonRunFile, {
      nats: server.url,
      store: experiment.store,
      cwd: experiment.folder,
      extra: ['--wait'],
    });
    const others: string[] = [];
    for (let index = 0; index < 3; index++) {
      const submitted = await submit(experiment.runFile, {
        nats: server.url,
        store: experiment.store,
        cwd: experiment.folder,
      });
      expect(submitted.code, submitted.stderr).toBe(0);
      others.push(submitted.stdout.trim());
    }
    const waited = await waiting;
    const poisonId = readStore(experiment.store, (store) =>
      store.listRuns().find((run) => run.uid === 'poison-line'),
    )?.runId as string;
    expect(waited.code, waited.stderr).toBe(1);
    expect(waited.stdout).toContain(`run ${poisonId}: failed`);
    expect(waited.stdout).toContain(cause);
    await waitUntil(
      'the other runs succeeded',
      () =>
        readStore(experiment.store, (store) =>
          others.every((runId) => store.getRun(runId).status === 'succeeded'),
        ),
      { attempts: 400 },
    );
    // exactly three deliveries ran it, each killing its worker; the fourth failed it without running it
    expect(experiment.kills()).toBe(3);
    expect(supervisor.deaths()).toBe(3);
    expect(readStore(experiment.store, (store) => store.getRun(poisonId))).toMatchObject({
      status: 'failed',
      error: cause,
      lease: null,
    });
    expect(readStore(experiment.store, (store) => store.deliveryCount(poisonId).claimed)).toBe(3);
    const shown = await runArena(['show', poisonId, ...storeArgs], { cwd: experiment.folder });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(cause);
    const log = supervisor.started.map((worker) => worker.stderr()).join('');
    expect(log).toContain(
      `run ${poisonId} failed after 3 deliveries: the worker died while running it`,
    );
    // every worker is up at the end, and stops cleanly when told
    expect(supervisor.live()).toHaveLength(2);
    const stopped = await supervisor.stop();
    expect(stopped.map((exit) => exit.code)).toEqual([0, 0]);
  }, 90_000);
});

describe("one worker's lease TTL and the fleet's run consumer", () => {
  beforeEach(async () => {
    server = await startNatsServer();
  });
  afterEach(async () => {
    await killAll(workers);
    workers = [];
    await server.dispose();
  });

  it("refuses a second worker with another lease TTL (exit 2, one line naming both values) and leaves the consumer's ack_wait as the fleet set it; --reconfigure-fleet changes it", async () => {
    const experiment = queueExperiment(0);
    const args = (name: string) => [
      '--nats',
      server.url,
      '--store',
      `sqlite:${experiment.store}`,
      '--name',
      name,
      '--judge-concurrency',
      '0',
    ];
    const first = spawnWorker(args('w1'), { cwd: experiment.folder, env: fleetEnv });
    workers.push(first);
    await waitUntil('w1 is taking runs', () => first.stderr().includes('taking runs'));
    expect(await consumerAckWaitMs()).toBe(3000);
    const other = spawnWorker(args('w2'), {
      cwd: experiment.folder,
      env: { ARENA_LEASE_TTL_MS: '5000' },
    });
    workers.push(other);
    const exit = await other.exited;
    expect(exit.code, other.stderr()).toBe(2);
    const lines = other.stderr().trim().split('\n');
    expect(lines.at(-1)).toContain(
      "the run queue's consumer 'arena-workers' has ack_wait 3000 ms (the fleet's); this worker's is 7500 ms (1.5 x ARENA_LEASE_TTL_MS)",
    );
    expect(lines.at(-1)).toContain('--reconfigure-fleet');
    expect(await consumerAckWaitMs()).toBe(3000);
    expect(first.child.exitCode).toBeNull();
    // the fleet's setting, changed on purpose
    const reconfiguring = spawnWorker([...args('w3'), '--reconfigure-fleet'], {
      cwd: experiment.folder,
      env: { ARENA_LEASE_TTL_MS: '5000' },
    });
    workers.push(reconfiguring);
    await waitUntil('w3 is taking runs', () => reconfiguring.stderr().includes('taking runs'));
    expect(await consumerAckWaitMs()).toBe(7500);
  }, 60_000);
});

describe("one worker's judge ack wait and the fleet's judge consumer", () => {
  beforeEach(async () => {
    server = await startNatsServer();
  });
  afterEach(async () => {
    await killAll(workers);
    workers = [];
    await server.dispose();
  });

  it("refuses a second worker with another ARENA_JUDGE_ACK_WAIT_MS (exit 2, one line naming both values) and leaves the judge consumer's ack_wait as the fleet set it; --reconfigure-fleet changes it", async () => {
    const experiment = queueExperiment(0);
    const args = (name: string) => [
      '--nats',
      server.url,
      '--store',
      `sqlite:${experiment.store}`,
      '--name',
      name,
      '--judge-concurrency',
      '1',
    ];
    const judgeWait = (ms: number) => ({ ...fleetEnv, ARENA_JUDGE_ACK_WAIT_MS: String(ms) });
    const judgeAckWaitMs = () => consumerAckWaitMs('ARENA_JUDGE', 'arena-judges');
    const first = spawnWorker(args('w1'), { cwd: experiment.folder, env: judgeWait(2000) });
    workers.push(first);
    await waitUntil('w1 is taking runs', () => first.stderr().includes('taking runs'));
    expect(await judgeAckWaitMs()).toBe(2000);
    const other = spawnWorker(args('w2'), { cwd: experiment.folder, env: judgeWait(5000) });
    workers.push(other);
    const exit = await other.exited;
    expect(exit.code, other.stderr()).toBe(2);
    const lines = other.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      "arena: the judge queue's consumer 'arena-judges' has ack_wait 2000 ms (the fleet's); this worker's is 5000 ms (ARENA_JUDGE_ACK_WAIT_MS): start it with the fleet's setting, or change the fleet's with arena worker --reconfigure-fleet and restart the other workers with the same",
    );
    expect(await judgeAckWaitMs()).toBe(2000);
    expect(first.child.exitCode).toBeNull();
    // the fleet's setting, changed on purpose
    const reconfiguring = spawnWorker([...args('w3'), '--reconfigure-fleet'], {
      cwd: experiment.folder,
      env: judgeWait(5000),
    });
    workers.push(reconfiguring);
    await waitUntil('w3 is taking runs', () => reconfiguring.stderr().includes('taking runs'));
    expect(await judgeAckWaitMs()).toBe(5000);
    // the run consumer was the fleet's all along: w3's lease TTL is w1's
    expect(await consumerAckWaitMs()).toBe(3000);
  }, 60_000);

  it('lets the first worker set the judge ack wait on a consumer that arena judge --max-in-flight created before any worker', async () => {
    const experiment = queueExperiment(0);
    const cases = path.join(repoRoot, 'examples/judge/cases.jsonl');
    const queued = await runArena(
      [
        'judge',
        cases,
        '--config',
        path.join(repoRoot, 'examples/judge/replay.yaml'),
        '--nats',
        server.url,
        '--store',
        `sqlite:${path.join(experiment.folder, 'verdicts.db')}`,
        '--max-in-flight',
        '7',
      ],
      { cwd: experiment.folder },
    );
    expect(queued.code, queued.stderr).toBe(0);
    const judgeWait = (ms: number) => ({ ...fleetEnv, ARENA_JUDGE_ACK_WAIT_MS: String(ms) });
    const args = (name: string) => [
      '--nats',
      server.url,
      '--store',
      `sqlite:${path.join(experiment.folder, 'verdicts.db')}`,
      '--name',
      name,
    ];
    const first = spawnWorker(args('w1'), { cwd: experiment.folder, env: judgeWait(2000) });
    workers.push(first);
    await waitUntil('w1 is taking runs', () => first.stderr().includes('taking runs'));
    expect(await consumerAckWaitMs('ARENA_JUDGE', 'arena-judges')).toBe(2000);
    const other = spawnWorker(args('w2'), { cwd: experiment.folder, env: judgeWait(5000) });
    workers.push(other);
    expect((await other.exited).code, other.stderr()).toBe(2);
    expect(other.stderr()).toContain("has ack_wait 2000 ms (the fleet's)");
  }, 60_000);
});
