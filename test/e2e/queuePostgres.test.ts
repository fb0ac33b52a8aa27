import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/ports/store/postgres/postgresStore.js';
import type { RunStore } from '../../src/ports/store/store.js';
import { runArena } from '../support/cli.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import {
  killAll,
  queueExperiment,
  readStore,
  startWorker,
  submit,
  type WorkerProcess,
  waitUntil,
} from '../support/queueFleet.js';
import { runRecords } from '../support/records.js';

// Beyond one machine with both real engines: the queue on NATS JetStream, the store on PostgreSQL.
let nats: NatsServer;
let postgres: TestPostgres;
const workers: WorkerProcess[] = [];
beforeAll(async () => {
  [nats, postgres] = await Promise.all([startNatsServer(), startTestPostgres()]);
});
afterAll(async () => {
  await killAll(workers);
  await Promise.all([nats?.dispose(), postgres?.stop()]);
});

function readPostgres<T>(uri: string, read: (store: RunStore) => T): T {
  const store = openPostgresStore(uri, { readonly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}

describe('a queue of runs on NATS JetStream with a PostgreSQL store', () => {
  it('runs submitted to two workers writing one PostgreSQL store at once, one SIGKILLed mid-run and replaced, end with the records of arena run on SQLite', async () => {
    const experiment = queueExperiment(3);
    const local = await runArena(
      ['run', experiment.runFile, '--store', `sqlite:${experiment.store}`],
      {
        cwd: experiment.folder,
      },
    );
    expect(local.code).toBe(0);
    const expected = readStore(experiment.store, (store) =>
      runRecords(store, store.listRuns()[0]?.runId as string),
    );

    const store = await postgres.createDatabase('fleet');
    // two workers write the store at once; the first is killed mid-run, a third takes over
    const first = startWorker({ nats: nats.url, store, name: 'w1', cwd: experiment.folder });
    const other = startWorker({ nats: nats.url, store, name: 'w2', cwd: experiment.folder });
    workers.push(first, other);
    const submitted = [
      await submit(experiment.runFile, { nats: nats.url, store, cwd: experiment.folder }),
    ];
    submitted.push(
      await submit(experiment.runFile, { nats: nats.url, store, cwd: experiment.folder }),
    );
    for (const result of submitted) expect(result.code, result.stderr).toBe(0);
    const runIds = submitted.map((result) => result.stdout.trim());

    // kill the first worker once it has recorded some episodes of a run
    await waitUntil('the first worker to record episodes', () =>
      readPostgres(store, (opened) => runIds.some((runId) => opened.episodes(runId).length >= 5)),
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const second = startWorker({ nats: nats.url, store, name: 'w3', cwd: experiment.folder });
    workers.push(second);
    await waitUntil(
      'both runs to succeed',
      () =>
        readPostgres(store, (opened) =>
          runIds.every((runId) => opened.getRun(runId).status === 'succeeded'),
        ),
      { attempts: 1200 },
    );
    for (const runId of runIds) {
      expect(readPostgres(store, (opened) => runRecords(opened, runId))).toEqual(expected);
    }
    const listed = await runArena(['runs', '--store', store, '--json'], { cwd: experiment.folder });
    expect((JSON.parse(listed.stdout) as { status: string }[]).map((run) => run.status)).toEqual([
      'succeeded',
      'succeeded',
    ]);
    for (const worker of [other, second]) {
      worker.child.kill('SIGTERM');
      expect((await worker.exited).code).toBe(0);
    }
  });
});
