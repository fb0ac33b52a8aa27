import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeMigrations } from '../../../src/ports/store/sqlite/sqliteSchema.js';
import { openSqliteStore } from '../../../src/ports/store/sqlite/sqliteStore.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-queued-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("the run status 'queued'", () => {
  it('records a submitted run as queued, and a start turns it running', () => {
    const store = openSqliteStore(':memory:');
    const run = store.createRun({
      uid: 'grid',
      seed: 1,
      runFile: 'uid: grid',
      runFilePath: '/runs/grid.yaml',
      status: 'queued',
    });
    expect(store.getRun(run.runId).status).toBe('queued');
    store.rewindToStart(run.runId);
    expect(store.getRun(run.runId).status).toBe('running');
    store.close();
  });

  it('migrates a version-2 file to the newest version, keeping every run and its phases', () => {
    const file = path.join(folder, 'v2.db');
    const db = new Database(file);
    db.exec(storeMigrations[0] as string);
    db.exec(storeMigrations[1] as string);
    db.pragma('user_version = 2');
    db.exec(`INSERT INTO runs (run_id, uid, seed, run_file, run_file_path, status, started_at, lease_token)
             VALUES ('r1', 'grid', 7, 'uid: grid', '/g.yaml', 'succeeded', '2026-01-01T00:00:00.000Z', 3)`);
    db.exec(`INSERT INTO phases (run_id, phase_index, name, mode, status, episodes, started_at)
             VALUES ('r1', 0, 'train', 'train', 'done', 4, '2026-01-01T00:00:00.000Z')`);
    db.close();

    const store = openSqliteStore(file);
    expect(store.getRun('r1')).toMatchObject({ seed: 7, status: 'succeeded' });
    expect(store.phases('r1')).toHaveLength(1);
    const queued = store.createRun({
      uid: 'grid',
      seed: 2,
      runFile: 'uid: grid',
      runFilePath: '/g.yaml',
      status: 'queued',
    });
    expect(store.getRun(queued.runId).status).toBe('queued');
    store.close();

    const reread = new Database(file, { readonly: true });
    expect(reread.pragma('user_version', { simple: true })).toBe(storeMigrations.length);
    expect(reread.pragma('foreign_key_check')).toEqual([]);
    // the rebuilt table kept its index, and the children still reference it
    const sql = reread
      .prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'runs_by_start'")
      .get();
    expect(sql?.sql).toContain('runs (started_at, run_id)');
    reread.close();
  });

  it('refuses a status the schema does not know', () => {
    const file = path.join(folder, 'check.db');
    openSqliteStore(file).close();
    const db = new Database(file);
    expect(() =>
      db.exec(`INSERT INTO runs (run_id, uid, seed, run_file, run_file_path, status, started_at)
               VALUES ('x', 'u', 1, '', '/x', 'paused', '2026-01-01T00:00:00.000Z')`),
    ).toThrow(/CHECK constraint/);
    db.close();
  });
});
