import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJudgeStore } from '../../../src/ports/store/judgeStoreUri.js';
import { checkPostgresStore } from '../../../src/ports/store/postgres/postgresCheck.js';
import { StoreConnectionError } from '../../../src/ports/store/postgres/postgresErrors.js';
import { storeMigrations } from '../../../src/ports/store/sqlite/sqliteSchema.js';
import { StoreNotFoundError, StoreOpenError } from '../../../src/ports/store/storeErrors.js';
import { parseStoreUri } from '../../../src/ports/store/storeUri.js';
import { sampleEvaluationRun, sampleVerdict } from '../../support/judgeVerdicts.js';
import {
  freePort,
  passwordUser,
  passwordUserPassword,
  startTestPostgres,
  type TestPostgres,
} from '../../support/postgres.js';

const folder = mkdtempSync(path.join(tmpdir(), 'arena-judge-open-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('opening the judge store on SQLite', () => {
  it('creates the folder and the file for writing, and finds the same runs read-only', async () => {
    const location = parseStoreUri('sqlite:nested/dir/arena.db', folder);
    const store = await openJudgeStore(location);
    const run = await store.createEvaluationRun(sampleEvaluationRun);
    await store.close();
    expect(existsSync(location.path)).toBe(true);
    const reader = await openJudgeStore(location, { readonly: true });
    expect((await reader.getEvaluationRun(run.evaluationRunId)).judgeName).toBe('quality');
    await reader.close();
  });

  it('read-only, refuses a missing file and creates nothing', async () => {
    const location = parseStoreUri('sqlite:missing/arena.db', folder);
    await expect(openJudgeStore(location, { readonly: true })).rejects.toThrow(StoreNotFoundError);
    expect(existsSync(path.dirname(location.path))).toBe(false);
  });

  it('read-only, names the old schema of a store no arena judge has opened, and leaves it as it is', async () => {
    const file = path.join(folder, 'v3.db');
    const db = new Database(file);
    for (const migration of storeMigrations.slice(0, 3)) db.exec(migration);
    db.pragma('user_version = 3');
    db.close();
    const opening = openJudgeStore(parseStoreUri(`sqlite:${file}`), { readonly: true });
    await expect(opening).rejects.toThrow(StoreOpenError);
    await expect(
      openJudgeStore(parseStoreUri(`sqlite:${file}`), { readonly: true }),
    ).rejects.toThrow(
      `${file}: schema version 3 has no evaluation runs yet; open it once for writing (arena judge) to migrate it`,
    );
    const reread = new Database(file, { readonly: true });
    expect(reread.pragma('user_version', { simple: true })).toBe(3);
    reread.close();
    // opened for writing, it is migrated and then takes evaluation runs
    const writer = await openJudgeStore(parseStoreUri(`sqlite:${file}`));
    await writer.createEvaluationRun(sampleEvaluationRun);
    await writer.close();
  });
});

describe('opening the judge store on PostgreSQL', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startTestPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const withPassword = (uri: string) =>
    uri.replace('arena@', `${passwordUser}:${passwordUserPassword}@`);

  it('connects with the password in the URI, and migrates the database first', async () => {
    const uri = withPassword(await server.createDatabase('judge_password'));
    const store = await openJudgeStore(parseStoreUri(uri));
    const run = await store.createEvaluationRun(sampleEvaluationRun);
    expect(await store.recordVerdict(sampleVerdict(run.evaluationRunId, 'c1'))).toBe('recorded');
    await store.close();
  });

  it('arena check finds the judge tables, and names one that is missing', async () => {
    const uri = await server.createDatabase('judge_check');
    await (await openJudgeStore(parseStoreUri(uri))).close();
    expect(checkPostgresStore(uri).problems).toEqual([]);
    const client = new pg.Client({ connectionString: uri });
    await client.connect();
    await client.query('DROP TABLE verdicts');
    await client.end();
    expect(checkPostgresStore(uri).problems).toEqual(['table verdicts is missing']);
  });

  it('read-only, refuses a database with no arena store', async () => {
    const uri = await server.createDatabase('judge_empty');
    await expect(openJudgeStore(parseStoreUri(uri), { readonly: true })).rejects.toThrow(
      StoreNotFoundError,
    );
  });

  it('a server that is not there: one line naming it, without the password', async () => {
    const port = await freePort();
    const uri = `postgres://${passwordUser}:${passwordUserPassword}@127.0.0.1:${port}/arena`;
    const opening = openJudgeStore(parseStoreUri(uri));
    await expect(opening).rejects.toThrow(StoreOpenError);
    await expect(openJudgeStore(parseStoreUri(uri))).rejects.toThrow(
      `postgres://${passwordUser}@127.0.0.1:${port}/arena: cannot connect to 127.0.0.1:${port} (ECONNREFUSED): is the server running?`,
    );
  });

  it('a server that stops: the store’s connection error, naming it, without the password', async () => {
    const own = await startTestPostgres();
    const uri = withPassword(await own.createDatabase('judge_going'));
    const store = await openJudgeStore(parseStoreUri(uri));
    const run = await store.createEvaluationRun(sampleEvaluationRun);
    await own.stop();
    const failures = await Promise.allSettled([
      store.recordVerdict(sampleVerdict(run.evaluationRunId, 'c1')),
      store.getEvaluationRun(run.evaluationRunId),
    ]);
    for (const failure of failures) {
      expect(failure.status).toBe('rejected');
      const reason = (failure as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(StoreConnectionError);
      expect(reason.message).toMatch(
        new RegExp(
          `^postgres://${passwordUser}@127\\.0\\.0\\.1:${own.port}/judge_going: lost the connection to 127\\.0\\.0\\.1:${own.port} \\(.+\\); what was committed is kept$`,
        ),
      );
      expect(reason.message).not.toContain(passwordUserPassword);
    }
    await store.close();
  });
});
