import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresMigrations } from '../../src/ports/store/postgres/postgresSchema.js';
import { openPostgresStore } from '../../src/ports/store/postgres/postgresStore.js';
import { openSqliteStore } from '../../src/ports/store/sqlite/sqliteStore.js';
import { repoRoot, runArena } from '../support/cli.js';
import { startArena } from '../support/faultTrials.js';
import { moduleLog } from '../support/moduleLog.js';
import { freePort, startTestPostgres, type TestPostgres } from '../support/postgres.js';
import { runRecords } from '../support/records.js';

let server: TestPostgres;
let uri: string;
let folder: string;
const runFile = path.join(repoRoot, 'examples/hosting-capacity.yaml');

beforeAll(async () => {
  server = await startTestPostgres();
  uri = await server.createDatabase('cli');
  folder = mkdtempSync(path.join(tmpdir(), 'arena-pg-e2e-'));
});
afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const runIdOf = (stdout: string): string => /^run (\S+): /m.exec(stdout)?.[1] ?? '';

/** Which modules a CLI process loads (files in this test's folder). */
const moduleLogOf = (name: string) => moduleLog(folder, name);

describe('arena on a PostgreSQL store', () => {
  let runId = '';

  it('runs a run file into PostgreSQL with exactly the records it writes into SQLite', async () => {
    const onPostgres = await runArena(['run', runFile, '--store', uri]);
    expect(onPostgres.stderr).toBe('');
    expect(onPostgres.code).toBe(0);
    expect(onPostgres.stdout).toContain(`stored in ${uri}; see it with: arena show `);
    runId = runIdOf(onPostgres.stdout);
    const sqliteFile = path.join(folder, 'reference.db');
    const onSqlite = await runArena(['run', runFile, '--store', `sqlite:${sqliteFile}`]);
    expect(onSqlite.code).toBe(0);

    const postgres = openPostgresStore(uri, { readonly: true });
    const sqlite = openSqliteStore(sqliteFile, { readonly: true });
    const reference = runRecords(sqlite, runIdOf(onSqlite.stdout));
    expect(reference.episodes.length).toBeGreaterThan(100);
    expect(runRecords(postgres, runId)).toEqual(reference);
    expect(postgres.snapshotCount(runId)).toBe(sqlite.snapshotCount(runIdOf(onSqlite.stdout)));
    expect(postgres.getRun(runId)).toMatchObject({ status: 'succeeded', lease: null });
    postgres.close();
    sqlite.close();
  });

  it('lists, shows, reports and checks the run read-only, and ARENA_STORE names the store', async () => {
    const runs = await runArena(['runs'], { cwd: folder, env: { ARENA_STORE: uri } });
    expect(runs.code).toBe(0);
    expect(runs.stdout).toMatch(new RegExp(`^${runId}\\s+hosting-capacity\\s+succeeded`, 'm'));
    const show = await runArena(['show', runId, '--store', uri]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('midas.definition.pv_bus_6_peak_mw: 2.2 → 11');
    const store = openPostgresStore(uri, { readonly: true });
    expect(show.stdout).toContain(`snapshots ${store.snapshotCount(runId)}`);
    store.close();
    const out = path.join(folder, 'report.html');
    const report = await runArena(['report', runId, '--store', uri, '--out', out]);
    expect(report.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain(runId);
    const check = await runArena(['check', uri]);
    expect(check.stdout).toBe(
      `ok: ${uri} is a sound arena store (schema version ${postgresMigrations.length}, 1 run)\n`,
    );
    const missing = await runArena(['show', 'no-such-run', '--store', uri]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `arena: no run 'no-such-run' in ${uri} (arena runs --store ${uri} lists the runs)\n`,
    );
  });

  it('fails in one line with exit 2 when the server is down or the database is missing', async () => {
    const closed = await freePort();
    const down = `postgres://arena@127.0.0.1:${closed}/cli`;
    for (const args of [
      ['runs', '--store', down],
      ['run', runFile, '--store', down],
    ]) {
      const result = await runArena(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `arena: StoreOpenError: ${down}: cannot connect to 127.0.0.1:${closed} (ECONNREFUSED): is the server running?\n`,
      );
    }
    const nowhere = uri.replace(/\/cli$/, '/nowhere');
    const result = await runArena(['runs', '--store', nowhere]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("has no database 'nowhere' (3D000)");
  });

  it('loads nothing of PostgreSQL for a SQLite store, and its adapter only for a postgres:// one', async () => {
    const sqliteRun = moduleLogOf('sqlite');
    const onSqlite = await runArena(
      ['runs', '--store', `sqlite:${path.join(folder, 'reference.db')}`],
      {
        env: sqliteRun.env,
      },
    );
    expect(onSqlite.code).toBe(0);
    expect(sqliteRun.loaded()).toContain('better-sqlite3');
    // The `arena` bundle has a chunk per dynamically loaded module, named after it.
    expect(sqliteRun.loaded()).not.toMatch(/\/chunks\/postgres|node_modules\/pg\//);
    const postgresRun = moduleLogOf('postgres');
    const onPostgres = await runArena(['runs', '--store', uri], { env: postgresRun.env });
    expect(onPostgres.code).toBe(0);
    expect(postgresRun.loaded()).toMatch(/\/chunks\/postgresStore-\w+\.js/);
  });

  it('resumes a run SIGKILLed mid-run on PostgreSQL to exactly the records of an uninterrupted run', async () => {
    const experiment = mkdtempSync(path.join(folder, 'slow-'));
    cpSync(path.join(repoRoot, 'test/fixtures/runs/slow'), experiment, { recursive: true });
    const killedUri = await server.createDatabase('killed');
    const reference = await runArena(
      ['run', 'run.yaml', '--store', `sqlite:${path.join(experiment, 'ref.db')}`],
      {
        cwd: experiment,
      },
    );
    expect(reference.code).toBe(0);

    const arena = startArena(
      path.join(repoRoot, 'cli/bin/arena.js'),
      ['run', 'run.yaml', '--store', killedUri],
      experiment,
    );
    const watcher = () => openPostgresStore(killedUri, { readonly: true });
    let runId = '';
    for (let attempt = 0; runId === ''; attempt++) {
      if (attempt > 1500) throw new Error('the run never reached 8 episodes');
      await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        const store = watcher();
        const [run] = store.listRuns();
        const episodes = run === undefined ? 0 : store.episodes(run.runId).length;
        store.close();
        if (run !== undefined && episodes >= 8) runId = run.runId;
      } catch {
        // the schema is not created yet
      }
    }
    arena.child.kill('SIGKILL');
    expect((await arena.exited).signal).toBe('SIGKILL');
    const resumed = await runArena(['run', '--resume', runId, '--store', killedUri], {
      cwd: experiment,
    });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);

    const sqlite = openSqliteStore(path.join(experiment, 'ref.db'), { readonly: true });
    const postgres = watcher();
    expect(runRecords(postgres, runId)).toEqual(runRecords(sqlite, runIdOf(reference.stdout)));
    expect(postgres.resumes(runId)).toHaveLength(1);
    expect(postgres.getRun(runId)).toMatchObject({ status: 'succeeded', lease: null });
    sqlite.close();
    postgres.close();
  });
});
