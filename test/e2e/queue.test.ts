import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openJetStreamRunQueue } from '../../src/ports/nats/jetStreamRunQueue.js';
import { runArena } from '../support/cli.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import {
  allSucceeded,
  cli,
  killAll,
  queueExperiment,
  readStore,
  startWorker,
  storedEpisodes,
  submit,
  type WorkerProcess,
  waitUntil,
} from '../support/queueFleet.js';
import { runRecords } from '../support/records.js';

let server: NatsServer;
let workers: WorkerProcess[] = [];
beforeEach(async () => {
  server = await startNatsServer();
});
afterEach(async () => {
  // nothing is left running: every worker this test started, then the server, by pid
  await killAll(workers);
  workers = [];
  await server.dispose();
});

function worker(name: string, experiment: { folder: string; store: string }, concurrency = 1) {
  const started = startWorker({
    nats: server.url,
    store: experiment.store,
    name,
    cwd: experiment.folder,
    concurrency,
  });
  workers.push(started);
  return started;
}

/** The records `arena run` stores for the same run file (steps sleep 3 ms: kills land mid-run). */
let reference: ReturnType<typeof runRecords>;
beforeAll(async () => {
  const experiment = queueExperiment(3);
  const run = await runArena(['run', experiment.runFile, '--store', `sqlite:${experiment.store}`], {
    cwd: experiment.folder,
  });
  expect(run.code).toBe(0);
  reference = readStore(experiment.store, (store) => {
    const [only] = store.listRuns();
    return runRecords(store, only?.runId as string);
  });
});

/** Messages still on the run queue's stream (a work queue: an acked one is gone). */
async function queuedMessages(): Promise<number> {
  const nc = await connect({ servers: server.url });
  try {
    const info = await (await jetstreamManager(nc)).streams.info('ARENA_RUNS');
    return info.state.messages;
  } finally {
    await nc.close();
  }
}

const recordsOf = (store: string, runId: string) =>
  readStore(store, (opened) => runRecords(opened, runId));
const resumesOf = (store: string, runId: string) =>
  readStore(store, (opened) => opened.resumes(runId).length);

async function submitted(experiment: { folder: string; runFile: string; store: string }) {
  const result = await submit(experiment.runFile, {
    nats: server.url,
    store: experiment.store,
    cwd: experiment.folder,
  });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
}

describe('arena submit and arena worker', () => {
  it('refuses a bad run file with exit 2 and queues and stores nothing', async () => {
    const experiment = queueExperiment(3);
    const bad = path.join(experiment.folder, 'bad.yaml');
    writeFileSync(bad, 'uid: x\nseed: 1\nversion: 1\nschedule: []\n');
    const result = await submit(bad, {
      nats: server.url,
      store: experiment.store,
      cwd: experiment.folder,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('schedule: expected a non-empty list of phases');
    expect(existsSync(experiment.store)).toBe(false);
    const queue = await openJetStreamRunQueue({ url: server.url, consume: { ackWaitMs: 5000 } });
    expect(await queue.next({ waitMs: 1000 })).toBeNull();
    await queue.close();
  });

  it('a run taken by one worker records exactly what arena run records', async () => {
    const experiment = queueExperiment(3);
    const runId = await submitted(experiment);
    expect(readStore(experiment.store, (store) => store.getRun(runId).status)).toBe('queued');
    worker('w1', experiment);
    await waitUntil('the run succeeded', () => allSucceeded(experiment.store, 1));
    expect(recordsOf(experiment.store, runId)).toEqual(reference);
    expect(resumesOf(experiment.store, runId)).toBe(0);
  });

  it('submit --wait ends with the closing summary and exit code of arena run', async () => {
    const experiment = queueExperiment(1);
    const w1 = worker('w1', experiment);
    const result = await submit(experiment.runFile, {
      nats: server.url,
      store: experiment.store,
      cwd: experiment.folder,
      extra: ['--wait', '--json'],
    });
    expect(result.code, `${result.stderr}\nworker: ${w1.stderr()}`).toBe(0);
    const summary = JSON.parse(result.stdout) as { runId: string; status: string };
    expect(summary.status).toBe('succeeded');
    expect(recordsOf(experiment.store, summary.runId)).toEqual(reference);
  });

  it('submit --wait of a run that fails prints the summary arena run prints and exits 1 as it does', async () => {
    const experiment = queueExperiment(0);
    // an environment that crashes mid-phase: the run fails, as a user's simulator might
    appendFileSync(
      path.join(experiment.folder, 'components.js'),
      `\nexport class CrashingLine extends SlowLine {\n  calls = 0;\n  step(actions) {\n    if (++this.calls === 50) throw new Error('the simulator crashed at step 50');\n    return super.step(actions);\n  }\n}\n`,
    );
    writeFileSync(
      experiment.runFile,
      readFileSync(experiment.runFile, 'utf8').replace('SlowLine, params', 'CrashingLine, params'),
    );
    const local = await runArena(['run', experiment.runFile, '--store', 'sqlite:local.db'], {
      cwd: experiment.folder,
    });
    expect(local.code, local.stderr).toBe(1);
    const w1 = worker('w1', experiment);
    const waited = await submit(experiment.runFile, {
      nats: server.url,
      store: experiment.store,
      cwd: experiment.folder,
      extra: ['--wait'],
    });
    expect(waited.code, `${waited.stderr}\nworker: ${w1.stderr()}`).toBe(1);
    // the same summary but for the run id and the store it names
    const plain = (text: string) =>
      text
        .replaceAll(/slow-line-\d{8}T\d{6}-[0-9a-f]{4}/g, '<run>')
        .replaceAll(/\w+\.db/g, '<store>');
    expect(plain(waited.stdout)).toBe(plain(local.stdout));
    expect(waited.stdout).toContain('the simulator crashed at step 50');
  });

  it('Ctrl-C on submit --wait stops only the waiting: the run stays queued for the workers', async () => {
    const experiment = queueExperiment(1);
    const waiting = spawn(
      process.execPath,
      [
        cli,
        'submit',
        experiment.runFile,
        '--nats',
        server.url,
        '--store',
        `sqlite:${experiment.store}`,
        '--wait',
      ],
      { cwd: experiment.folder, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    waiting.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => waiting.on('close', resolve));
    await waitUntil('the run is queued', () => stderr.includes('waiting for a worker'), {
      everyMs: 20,
    });
    waiting.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/stopped waiting; run .* goes on in the workers/);
    const [run] = readStore(experiment.store, (store) => store.listRuns());
    expect(run?.status).toBe('queued');
    worker('w1', experiment);
    await waitUntil('the run succeeded', () => allSucceeded(experiment.store, 1));
  });

  it('two workers (one running two at a time) share a batch: every run identical to arena run, none run twice', async () => {
    const experiment = queueExperiment(3);
    const runIds = [
      await submitted(experiment),
      await submitted(experiment),
      await submitted(experiment),
    ];
    const [one, two] = [worker('w1', experiment, 2), worker('w2', experiment)];
    await waitUntil('the batch succeeded', () => allSucceeded(experiment.store, 3));
    for (const runId of runIds) {
      expect(recordsOf(experiment.store, runId)).toEqual(reference);
      expect(resumesOf(experiment.store, runId)).toBe(0);
    }
    // each run was taken exactly once across both workers
    const taken = (one.stderr() + two.stderr()).match(/ taken /g) ?? [];
    expect(taken).toHaveLength(3);
  });

  it('a duplicate message of a run is one execution with no duplicated rows', async () => {
    const experiment = queueExperiment(3);
    const runId = await submitted(experiment);
    // a second message of the same run that the duplicate window cannot catch (another message id)
    const nc = await connect({ servers: server.url });
    await jetstream(nc).publish('arena.runs.queued', JSON.stringify({ runId }), {
      msgID: `${runId}/again`,
    });
    await nc.close();
    const [one, two] = [worker('w1', experiment), worker('w2', experiment)];
    await waitUntil('the run succeeded', () => allSucceeded(experiment.store, 1));
    await waitUntil('the second message was dropped', () =>
      /already succeeded; message dropped/.test(one.stderr() + two.stderr()),
    );
    expect(recordsOf(experiment.store, runId)).toEqual(reference);
    expect(resumesOf(experiment.store, runId)).toBe(0);
  });

  it('a worker SIGKILLed mid-run: another worker resumes it with identical records', async () => {
    const experiment = queueExperiment(3);
    const runId = await submitted(experiment);
    const doomed = worker('w1', experiment);
    await waitUntil('w1 is mid-run', () => storedEpisodes(experiment.store, runId) >= 6, {
      everyMs: 20,
    });
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    worker('w2', experiment);
    await waitUntil('the run succeeded', () => allSucceeded(experiment.store, 1));
    expect(recordsOf(experiment.store, runId)).toEqual(reference);
    expect(resumesOf(experiment.store, runId)).toBe(1);
  });

  it('SIGTERM hands a run back: the worker exits 0 and another finishes it identically', async () => {
    const experiment = queueExperiment(3);
    const runId = await submitted(experiment);
    const stopping = worker('w1', experiment);
    await waitUntil('w1 is mid-run', () => storedEpisodes(experiment.store, runId) >= 6, {
      everyMs: 20,
    });
    stopping.child.kill('SIGTERM');
    expect((await stopping.exited).code).toBe(0);
    expect(stopping.stderr()).toMatch(/handed back/);
    expect(readStore(experiment.store, (store) => store.getRun(runId))).toMatchObject({
      status: 'running',
      lease: null,
    });
    worker('w2', experiment);
    await waitUntil('the run succeeded', () => allSucceeded(experiment.store, 1));
    expect(recordsOf(experiment.store, runId)).toEqual(reference);
  });

  it('every worker stopped and started again: the batch ends identical', async () => {
    const experiment = queueExperiment(3);
    const runIds = [await submitted(experiment), await submitted(experiment)];
    const first = [worker('w1', experiment), worker('w2', experiment)];
    await waitUntil(
      'both runs are mid-run',
      () => runIds.every((runId) => storedEpisodes(experiment.store, runId) >= 4),
      { everyMs: 20 },
    );
    for (const each of first) each.child.kill('SIGTERM');
    for (const each of first) expect((await each.exited).code).toBe(0);
    worker('w3', experiment);
    worker('w4', experiment);
    await waitUntil('the batch succeeded', () => allSucceeded(experiment.store, 2));
    for (const runId of runIds) expect(recordsOf(experiment.store, runId)).toEqual(reference);
  });

  it('the NATS server restarted mid-run: the run ends once, identical, and the worker goes on', async () => {
    const experiment = queueExperiment(3);
    const runId = await submitted(experiment);
    worker('w1', experiment);
    await waitUntil('w1 is mid-run', () => storedEpisodes(experiment.store, runId) >= 6, {
      everyMs: 20,
    });
    await server.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.start();
    await waitUntil('the run succeeded', () => allSucceeded(experiment.store, 1));
    expect(recordsOf(experiment.store, runId)).toEqual(reference);
    // the worker reconnected: it takes a run submitted after the restart
    const later = await submitted(experiment);
    await waitUntil('the later run succeeded', () => allSucceeded(experiment.store, 2));
    expect(recordsOf(experiment.store, later)).toEqual(reference);
    // every message was settled: acked, or redelivered and dropped as done
    await waitUntil('the queue is empty', async () => (await queuedMessages()) === 0, {
      attempts: 100,
    });
  });
});
