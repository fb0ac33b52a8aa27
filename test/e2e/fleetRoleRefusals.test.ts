import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/ports/store/postgres/postgresStore.js';
import { repoRoot, runArena } from '../support/cli.js';
import { judgeFixture } from '../support/judgeFleet.js';
import { type AuthorizedNats, startAuthorizedNats } from '../support/natsRoles.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import {
  fleetEnv,
  killAll,
  queueExperiment,
  spawnWorker,
  submit,
  type WorkerProcess,
  waitForStart,
  waitUntil,
} from '../support/queueFleet.js';

// A worker or submitter whose store or bus refuses it at the start says so in one line and exits 2:
// a supervisor restarts it or an operator fixes its role, instead of a process idling for ever.
let postgres: TestPostgres;
let nats: AuthorizedNats;
let admin: string;
const experiment = queueExperiment(0);
const passwords: Record<string, string> = {};
const uriAs = (role: string, password = passwords[role] ?? '') =>
  admin.replace('postgres://arena@', `postgres://${role}:${encodeURIComponent(password)}@`);

async function sql(uri: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: uri });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const docs = (file: string) => readFileSync(path.join(repoRoot, 'docs/postgres', file), 'utf8');
const started: WorkerProcess[] = [];

beforeAll(async () => {
  // every role of docs/postgres/roles.sql gives its password; only the tests' superuser is trusted
  [postgres, nats] = await Promise.all([
    startTestPostgres({
      hba: ['host all arena 127.0.0.1/32 trust', 'host all all 127.0.0.1/32 scram-sha-256'],
    }),
    startAuthorizedNats(),
  ]);
  admin = await postgres.createDatabase('arena_refused');
  const roles = docs('roles.sql');
  for (const [, role, password] of roles.matchAll(/CREATE ROLE (\w+) LOGIN PASSWORD '([^']+)'/g))
    passwords[role as string] = password as string;
  await sql(admin, roles);
  openPostgresStore(uriAs('arena_owner')).close();
  await sql(uriAs('arena_owner'), docs('grants.sql'));
  // a worker of the right roles sets up the queues the refused ones find, then stops
  const setUp = spawnWorker(
    ['--nats', nats.urlOf('worker'), '--store', uriAs('arena_worker'), '--name', 'w0'],
    { cwd: experiment.folder, env: fleetEnv },
  );
  started.push(setUp);
  await waitForStart([setUp]);
  setUp.child.kill('SIGTERM');
  await setUp.exited;
});
afterAll(async () => {
  await killAll(started);
  await Promise.all([nats?.dispose(), postgres?.stop()]);
});

/** `arena worker` with these credentials, run until it exits on its own. */
async function workerAs(natsRole: 'worker' | 'viewer', store: string) {
  const worker = spawnWorker(['--nats', nats.urlOf(natsRole), '--store', store, '--name', 'w'], {
    cwd: experiment.folder,
    env: fleetEnv,
  });
  started.push(worker);
  const { code } = await worker.exited;
  return { code, stderr: worker.stderr() };
}

/** The one line a refused command ends with: no stack, nothing after it. */
function lastLine(stderr: string): string {
  expect(stderr).not.toMatch(/\n\s+at /);
  return stderr.trimEnd().split('\n').at(-1) ?? '';
}

describe('a worker or submitter refused at the start', () => {
  it('a worker with a wrong PostgreSQL password exits 2 with one line naming the user, before it connects to NATS', async () => {
    const ended = await workerAs('worker', uriAs('arena_worker', 'wrong-password'));
    expect(ended.code).toBe(2);
    expect(ended.stderr).toBe(
      `arena: StoreOpenError: postgres://arena_worker@127.0.0.1:${postgres.port}/arena_refused: the server at 127.0.0.1:${postgres.port} refused user 'arena_worker' (28P01: password authentication failed for user "arena_worker")\n`,
    );
  });

  it('a worker with the NATS viewer role exits 2 with one line naming the refused pull', async () => {
    const ended = await workerAs('viewer', uriAs('arena_worker'));
    expect(ended.code).toBe(2);
    expect(lastLine(ended.stderr)).toMatch(
      /^arena: NatsPermissionError: nats:\/\/viewer:\*\*\*@127\.0\.0\.1:\d+ refused user viewer: Permissions Violation for Publish to "\$JS\.API\.CONSUMER\.MSG\.NEXT\.ARENA_(RUNS\.arena-workers|JUDGE\.arena-judges)" \(that role may not do this; arena's roles: docs\/nats\/authorization\.conf\)$/,
    );
  });

  it('a worker with the PostgreSQL viewer role exits 2 with one line naming the writes it lacks', async () => {
    const ended = await workerAs('worker', uriAs('arena_viewer'));
    expect(ended.code).toBe(2);
    expect(ended.stderr).toBe(
      `arena: StorePermissionError: postgres://arena_viewer@127.0.0.1:${postgres.port}/arena_refused: user 'arena_viewer' may not UPDATE runs, INSERT phases, INSERT episodes, INSERT checkpoints, INSERT snapshots, INSERT resumes, DELETE episodes, UPDATE evaluation_runs, INSERT verdicts (that role may not do this; arena's roles: docs/postgres/roles.sql and grants.sql)\n`,
    );
  });

  it('submit with the PostgreSQL viewer role exits 2 with one line naming the refused write', async () => {
    const submitted = await submit(experiment.runFile, {
      nats: nats.urlOf('submitter'),
      store: uriAs('arena_viewer'),
      cwd: experiment.folder,
    });
    expect(submitted.code).toBe(2);
    expect(submitted.stderr).toBe(
      `arena: StorePermissionError: postgres://arena_viewer@127.0.0.1:${postgres.port}/arena_refused: user 'arena_viewer' was refused: permission denied for table runs (42501) (that role may not do this; arena's roles: docs/postgres/roles.sql and grants.sql)\n`,
    );
  });
});

describe('requeue with the documented roles', () => {
  let evaluationRunId = '';
  let lostRunId = '';

  it('arena requeue as the submitter puts back a queued run the queue lost, and counts what it still holds', async () => {
    for (let index = 0; index < 2; index++) {
      const submitted = await submit(experiment.runFile, {
        nats: nats.urlOf('submitter'),
        store: uriAs('arena_submitter'),
        cwd: experiment.folder,
      });
      expect(submitted.code, submitted.stderr).toBe(0);
    }
    // a submit whose publish never reached the queue: the store holds the run as queued
    const store = openPostgresStore(uriAs('arena_submitter'));
    try {
      const runFile = readFileSync(experiment.runFile, 'utf8');
      lostRunId = store.createRun({
        uid: 'lost',
        seed: 1,
        runFile,
        runFilePath: experiment.runFile,
        status: 'queued',
      }).runId;
    } finally {
      store.close();
    }
    const fixture = judgeFixture({ baseURL: 'http://127.0.0.1:9/v1' }, 5);
    const judged = await runArena(
      [
        ...['judge', fixture.cases, '--config', fixture.config],
        ...['--nats', nats.urlOf('submitter'), '--store', uriAs('arena_submitter')],
      ],
      { cwd: fixture.folder, env: fleetEnv },
    );
    expect(judged.code, judged.stderr).toBe(0);
    evaluationRunId = /as evaluation run (\S+)/.exec(judged.stderr)?.[1] ?? 'none';
    const requeued = await runArena(
      ['requeue', '--nats', nats.urlOf('submitter'), '--store', uriAs('arena_submitter')],
      { cwd: experiment.folder },
    );
    expect(requeued.code, requeued.stderr).toBe(0);
    expect(requeued.stdout).toBe(
      `put back 1 run (2 still queued): ${lostRunId}\nput back 0 cases of evaluation run ${evaluationRunId} (5 still queued)\n`,
    );
  });

  it('arena requeue as the viewer is one line naming the refused read and the user, exit 2', async () => {
    const requeued = await runArena(
      ['requeue', '--nats', nats.urlOf('viewer'), '--store', uriAs('arena_submitter')],
      { cwd: experiment.folder },
    );
    expect(requeued.code).toBe(2);
    expect(requeued.stderr).toBe(
      `arena: NatsPermissionError: nats://viewer:***@127.0.0.1:${nats.server.port} refused user viewer: Permissions Violation for Publish to "$JS.API.STREAM.MSG.GET.ARENA_RUNS" (that role may not do this; arena's roles: docs/nats/authorization.conf)\n`,
    );
  });

  it("a worker's start-up requeue as the worker reads what the queues hold, and puts back nothing twice", async () => {
    const worker = spawnWorker(
      ['--nats', nats.urlOf('worker'), '--store', uriAs('arena_worker'), '--name', 'w2'],
      { cwd: experiment.folder, env: fleetEnv },
    );
    started.push(worker);
    await waitUntil('the worker put back what the store expects', () =>
      /put back \d+ cases? of evaluation run/.test(worker.stderr()),
    );
    expect(worker.stderr()).toContain('arena worker w2: put back 0 runs (3 still queued)');
    expect(worker.stderr()).toContain(
      `arena worker w2: put back 0 cases of evaluation run ${evaluationRunId} (5 still queued)`,
    );
    expect(worker.stderr()).not.toMatch(/could not put/);
  });
});
