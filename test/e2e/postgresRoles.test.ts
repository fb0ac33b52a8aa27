import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { openPostgresStore } from '../../src/ports/store/postgres/postgresStore.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { repoRoot, runArena } from '../support/cli.js';
import { judgeFixture, judgeFleetEnv, spawnArena, verdictFor } from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import {
  fleetEnv,
  killAll,
  queueExperiment,
  spawnWorker,
  submit,
  type WorkerProcess,
  waitUntil,
} from '../support/queueFleet.js';

// docs/postgres/roles.sql and grants.sql on a real PostgreSQL: each role does its job through arena's store, and no more.
let postgres: TestPostgres;
let nats: NatsServer;
let worker: WorkerProcess | undefined;
let chat: ChatServer;
let admin: string;
const experiment = queueExperiment(0);
const database = 'arena_roles';
const uriAs = (role: string) => admin.replace('postgres://arena@', `postgres://${role}@`);

async function sql(uri: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: uri });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

const docs = (file: string) => readFileSync(path.join(repoRoot, 'docs/postgres', file), 'utf8');

beforeAll(async () => {
  [postgres, nats] = await Promise.all([startTestPostgres(), startNatsServer()]);
  admin = await postgres.createDatabase(database);
  await sql(admin, docs('roles.sql'));
  // the owner's first writing open creates the tables; then it grants each role its part
  openPostgresStore(uriAs('arena_owner')).close();
  await sql(uriAs('arena_owner'), docs('grants.sql'));
  chat = await startChatServer((request) => verdictFor(request, 150));
  worker = spawnWorker(
    [
      ...['--nats', nats.url, '--store', uriAs('arena_worker'), '--name', 'w1'],
      ...['--judge-concurrency', '2'],
    ],
    { cwd: experiment.folder, env: { ...fleetEnv, ...judgeFleetEnv } },
  );
});
afterAll(async () => {
  await killAll(worker === undefined ? [] : [worker]);
  await chat?.close();
  await Promise.all([nats?.dispose(), postgres?.stop()]);
});

/** What PostgreSQL answers a role's statement: `ok`, or its SQLSTATE. */
async function attempt(role: string, text: string): Promise<string> {
  return sql(uriAs(role), text).then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? String(error),
  );
}

describe('the PostgreSQL roles of docs/postgres on a real server', () => {
  it('a worker and a submitter open the owner’s up-to-date store without writing its schema', () => {
    for (const role of ['arena_worker', 'arena_submitter']) {
      const store = openPostgresStore(uriAs(role));
      expect(store.listRuns()).toEqual([]);
      store.close();
    }
  });

  it('a role that may not create the tables is told so in one line, naming the owner', async () => {
    const fresh = (await postgres.createDatabase('arena_roles_fresh')).replace(
      'postgres://arena@',
      'postgres://arena_worker@',
    );
    expect(() => openPostgresStore(fresh)).toThrow(
      /arena_roles_fresh: holds no arena store yet, and user 'arena_worker' may not create or change its tables \(42501: permission denied for schema public\); open it once as the role that owns them/,
    );
  });

  it('submit --wait as the submitter, run by a worker as the worker; the viewer lists and checks it', async () => {
    const submitted = await submit(experiment.runFile, {
      nats: nats.url,
      store: uriAs('arena_submitter'),
      cwd: experiment.folder,
      extra: ['--wait'],
    });
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(submitted.stdout).toMatch(/: succeeded \(seed \d+\)/);
    const viewer = { cwd: experiment.folder };
    const runs = await runArena(['runs', '--store', uriAs('arena_viewer')], viewer);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toMatch(/slow-line-\S+ +\S+ +succeeded/);
    const check = await runArena(['check', uriAs('arena_viewer')], viewer);
    expect(check.code, check.stderr).toBe(0);
  });

  it('sweep --nats as the submitter, its trials run and held by the worker as the worker; the viewer shows the sweep', async () => {
    const swept = await runArena(
      [
        ...['sweep', path.join(repoRoot, 'examples/sweep.yaml'), '--nats', nats.url],
        ...['--store', uriAs('arena_submitter'), '--json'],
      ],
      { cwd: experiment.folder, env: fleetEnv },
    );
    expect(swept.code, `${swept.stderr}\n${worker?.stderr()}`).toBe(0);
    const { sweepId, trials } = JSON.parse(swept.stdout) as {
      sweepId: string;
      trials: { status: string }[];
    };
    expect(trials.some((trial) => trial.status === 'pruned')).toBe(true);
    const shown = await runArena(['show', sweepId, '--store', uriAs('arena_viewer'), '--json'], {
      cwd: experiment.folder,
    });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).sweepId).toBe(sweepId);
    // a worker reads where a trial holds, and writes no sweep
    expect(await attempt('arena_worker', `UPDATE sweeps SET status = 'failed'`)).toBe('42501');
    expect(await attempt('arena_viewer', `UPDATE sweep_trials SET hold_at = 1`)).toBe('42501');
  });

  it('judge --nats --wait as the submitter, judged by the worker; Ctrl-C on another cancels it in the store', async () => {
    const judgeArgs = (fixture: { cases: string; config: string }) => [
      ...['judge', fixture.cases, '--config', fixture.config, '--nats', nats.url],
      ...['--store', uriAs('arena_submitter'), '--wait'],
    ];
    const fixture = judgeFixture(chat, 4);
    const judged = await runArena(judgeArgs(fixture), { cwd: fixture.folder, env: judgeFleetEnv });
    expect(judged.code, judged.stderr).toBe(0);
    expect(judged.stdout.trim().split('\n')).toHaveLength(4);

    const longer = judgeFixture(chat, 30);
    const judging = spawnArena(judgeArgs(longer), { cwd: longer.folder, env: judgeFleetEnv });
    await waitUntil('the run is queued', () => /as evaluation run (\S+)/.test(judging.stderr()));
    const evaluationRunId = /as evaluation run (\S+)/.exec(judging.stderr())?.[1] as string;
    const store = await openJudgeStore(parseStoreUri(uriAs('arena_viewer')), { readonly: true });
    try {
      await waitUntil('a verdict', async () => (await store.verdictCount(evaluationRunId)) >= 1);
      judging.child.kill('SIGINT');
      expect((await judging.exited).code).toBe(130);
      expect((await store.getEvaluationRun(evaluationRunId)).status).toBe('cancelled');
    } finally {
      await store.close();
    }
    // nothing the roles do on their job was refused on the way
    expect(`${worker?.stderr()}${judged.stderr}`).not.toMatch(/permission denied|42501/);
  });

  it('each role is refused what is not its job', async () => {
    const refusals = {
      viewer: [
        "INSERT INTO runs (run_id, uid, seed, run_file, run_file_path, status, started_at) VALUES ('x', 'x', 1, '', '', 'queued', '')",
        "UPDATE runs SET status = 'cancelled'",
        "UPDATE evaluation_runs SET status = 'cancelled'",
        'DELETE FROM verdicts',
      ],
      submitter: [
        'DELETE FROM verdicts',
        "UPDATE verdicts SET status = 'passed'",
        "INSERT INTO verdicts (evaluation_run_id, case_key, judge_name, result, status, from_cache, recorded_at) SELECT evaluation_run_id, 'forged', judge_name, '{}', 'passed', false, '' FROM evaluation_runs LIMIT 1",
        'DELETE FROM runs',
        "UPDATE runs SET run_file = 'forged'",
        'UPDATE evaluation_runs SET verdicts_recorded = 0',
        'DELETE FROM verdict_cache',
        'TRUNCATE episodes',
        'DROP TABLE verdicts',
        'CREATE TABLE forged (id integer)',
        'UPDATE arena_schema SET version = 0',
      ],
      worker: [
        'DELETE FROM verdicts',
        'DELETE FROM runs',
        'DELETE FROM evaluation_runs',
        "UPDATE runs SET run_file = 'forged', modules = 'forged'",
        "INSERT INTO runs (run_id, uid, seed, run_file, run_file_path, status, started_at) VALUES ('x', 'x', 1, '', '', 'queued', '')",
        'UPDATE arena_schema SET version = 0',
        'ALTER TABLE runs ADD COLUMN forged TEXT',
      ],
    };
    const answers: Record<string, string[]> = {};
    for (const [role, statements] of Object.entries(refusals)) {
      answers[role] = await Promise.all(
        statements.map((statement) => attempt(`arena_${role}`, statement)),
      );
    }
    // 42501: insufficient privilege; a DDL statement on another's table says must be owner, also 42501
    expect(answers).toEqual({
      viewer: refusals.viewer.map(() => '42501'),
      submitter: refusals.submitter.map(() => '42501'),
      worker: refusals.worker.map(() => '42501'),
    });
    // the store is as the fleet left it
    const kept = await sql(admin, 'SELECT COUNT(*)::int AS n FROM verdicts');
    expect(kept.rows[0].n).toBeGreaterThanOrEqual(4);
  });
});
