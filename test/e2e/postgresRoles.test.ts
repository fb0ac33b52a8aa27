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

  it('refuses what issue 35 did as the roles: a finished run or evaluation run changed, a record deleted without the lease', async () => {
    const finishedRun = `(SELECT run_id FROM runs WHERE status = 'succeeded' LIMIT 1)`;
    const finishedEvaluation = `(SELECT evaluation_run_id FROM evaluation_runs WHERE status = 'succeeded' LIMIT 1)`;
    const before = await sql(admin, 'SELECT COUNT(*)::int AS n FROM episodes');
    expect(before.rows[0].n).toBeGreaterThan(0);
    const answers = {
      submitterFailsFinishedRun: await attempt(
        'arena_submitter',
        `UPDATE runs SET status = 'failed' WHERE run_id = ${finishedRun}`,
      ),
      submitterRewritesTotals: await attempt(
        'arena_submitter',
        `UPDATE evaluation_runs SET cases_total = 1, malformed_lines = 3 WHERE evaluation_run_id = ${finishedEvaluation}`,
      ),
      submitterRewritesSummary: await attempt(
        'arena_submitter',
        `UPDATE runs SET summary = '{}' WHERE run_id = ${finishedRun}`,
      ),
      workerDeletesEpisodes: await attempt(
        'arena_worker',
        `DELETE FROM episodes WHERE run_id = ${finishedRun}`,
      ),
      workerRefinishesRun: await attempt(
        'arena_worker',
        `UPDATE runs SET status = 'failed', records_digest = NULL WHERE run_id = ${finishedRun}`,
      ),
      submitterAddsCase: await attempt(
        'arena_submitter',
        `INSERT INTO evaluation_cases (evaluation_run_id, case_key, context) SELECT ${finishedEvaluation}, 'forged', '{}'`,
      ),
    };
    expect(answers).toEqual({
      submitterFailsFinishedRun: '42501',
      submitterRewritesTotals: '42501',
      submitterRewritesSummary: '42501',
      workerDeletesEpisodes: '42501',
      workerRefinishesRun: '42501',
      submitterAddsCase: '42501',
    });
    const after = await sql(admin, 'SELECT COUNT(*)::int AS n FROM episodes');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    // a verdict for a finished evaluation run is not recorded: skipped, as the store's own statement skips it
    const verdicts = 'SELECT COUNT(*)::int AS n FROM verdicts';
    const verdictsBefore = (await sql(admin, verdicts)).rows[0].n;
    const forged = await sql(
      uriAs('arena_worker'),
      `INSERT INTO verdicts (evaluation_run_id, case_key, judge_name, result, status, from_cache, recorded_at)
       SELECT ${finishedEvaluation}, 'forged', 'quality', '{}', 'passed', false, ''`,
    );
    expect(forged.rowCount).toBe(0);
    expect((await sql(admin, verdicts)).rows[0].n).toBe(verdictsBefore);
    // the refusal names the user and the run
    await expect(
      sql(
        uriAs('arena_submitter'),
        `UPDATE runs SET status = 'failed' WHERE run_id = ${finishedRun}`,
      ),
    ).rejects.toThrow(/user arena_submitter may not change run \S+: it is succeeded/);
  });

  it('a role’s own search_path cannot steer the rules on verdicts and cases (schema 11 sets none per row)', async () => {
    const client = new pg.Client({ connectionString: uriAs('arena_worker') });
    await client.connect();
    try {
      // a temporary table comes first for unqualified names: it says every evaluation run is running
      await client.query('CREATE TEMP TABLE evaluation_runs (evaluation_run_id TEXT, status TEXT)');
      await client.query(
        `INSERT INTO pg_temp.evaluation_runs SELECT evaluation_run_id, 'running' FROM public.evaluation_runs`,
      );
      await client.query('SET search_path = pg_temp, public');
      const finished = `(SELECT evaluation_run_id FROM public.evaluation_runs WHERE status = 'succeeded' LIMIT 1)`;
      const verdict = await client.query(
        `INSERT INTO public.verdicts (evaluation_run_id, case_key, judge_name, result, status, from_cache, recorded_at)
         SELECT ${finished}, 'shadowed', 'quality', '{}', 'passed', false, ''`,
      );
      expect(verdict.rowCount).toBe(0);
    } finally {
      await client.end();
    }
    expect(
      await attempt(
        'arena_submitter',
        `CREATE TEMP TABLE evaluation_runs (evaluation_run_id TEXT, status TEXT);
         INSERT INTO pg_temp.evaluation_runs SELECT evaluation_run_id, 'running' FROM public.evaluation_runs;
         INSERT INTO public.evaluation_cases (evaluation_run_id, case_key, context)
           SELECT evaluation_run_id, 'shadowed', '{}' FROM public.evaluation_runs WHERE status = 'succeeded' LIMIT 1`,
      ),
    ).toBe('42501');
  });

  it('a worker writes a running run’s records only under the lease it presents, and its current token', async () => {
    await sql(
      admin,
      `INSERT INTO runs (run_id, uid, seed, run_file, run_file_path, status, started_at, lease_owner, lease_token, lease_expires_ms)
       VALUES ('leased', 'u', 1, '', '/x', 'running', '2026-01-01T00:00:00.000Z', '{"id":"w9"}', 7, 9e15)`,
    );
    const phase = `INSERT INTO phases (run_id, phase_index, name, mode, status, episodes, started_at)
       VALUES ('leased', 0, 'train', 'train', 'running', 0, '2026-01-01T00:00:00.000Z')`;
    const presenting = (token: number) =>
      `BEGIN; SELECT set_config('arena.lease', 'leased:${token}', true); ${phase}; COMMIT;`;
    expect(await attempt('arena_worker', phase)).toBe('42501');
    expect(await attempt('arena_worker', presenting(6))).toBe('42501');
    expect(await attempt('arena_worker', presenting(7))).toBe('ok');
    expect(await attempt('arena_worker', "DELETE FROM phases WHERE run_id = 'leased'")).toBe(
      '42501',
    );
    await sql(admin, `UPDATE runs SET status = 'cancelled' WHERE run_id = 'leased'`);
    // finished, the lease no longer lets anything in
    expect(
      await attempt(
        'arena_worker',
        `BEGIN; SELECT set_config('arena.lease', 'leased:7', true); DELETE FROM phases WHERE run_id = 'leased'; COMMIT;`,
      ),
    ).toBe('42501');
    await sql(admin, `DELETE FROM runs WHERE run_id = 'leased'`);
  });

  it('a finished evaluation run keeps its verdicts and the cases’ digests, not their texts; the viewer reads no text', async () => {
    const cases = await sql(
      admin,
      `SELECT c.context, c.context_sha256 FROM evaluation_cases c JOIN evaluation_runs e USING (evaluation_run_id)
       WHERE e.status = 'succeeded'`,
    );
    expect(cases.rows.length).toBeGreaterThan(0);
    for (const row of cases.rows) {
      expect(row.context).toBe('');
      expect(row.context_sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(await attempt('arena_viewer', 'SELECT context FROM evaluation_cases')).toBe('42501');
    expect(
      await attempt('arena_viewer', 'SELECT case_key, context_sha256 FROM evaluation_cases'),
    ).toBe('ok');
  });

  it('arena check --deep finds a record the owner changed outside arena, naming the run and the table', async () => {
    const clean = await runArena(['check', '--deep', uriAs('arena_viewer')], {});
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/records of \d+ finished runs? match their digests/);
    const { rows } = await sql(
      uriAs('arena_owner'),
      `UPDATE episodes SET episode_return = episode_return + 1
       WHERE run_id = (SELECT run_id FROM runs WHERE status = 'succeeded' ORDER BY run_id LIMIT 1) AND episode = 1
       RETURNING run_id`,
    );
    const runId = rows[0].run_id as string;
    await sql(
      uriAs('arena_owner'),
      `UPDATE verdicts SET result = '{}' WHERE seq = (SELECT MIN(seq) FROM verdicts v
         JOIN evaluation_runs e USING (evaluation_run_id) WHERE e.status = 'succeeded')`,
    );
    const found = await runArena(['check', '--deep', uriAs('arena_viewer')], {});
    expect(found.code, found.stderr).toBe(1);
    expect(found.stdout).toContain(`  - run ${runId}: episodes changed since it finished`);
    expect(found.stdout).toMatch(/ {2}- evaluation run \S+: verdicts changed since it finished/);
    expect(found.stderr).toBe('');
  });
});
