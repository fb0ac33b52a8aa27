import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateStore, storeMigrations } from '../../../src/ports/store/sqlite/sqliteSchema.js';
import { openSqliteStore } from '../../../src/ports/store/sqlite/sqliteStore.js';
import { StoreSchemaError } from '../../../src/ports/store/storeErrors.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-schema-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const tables = (db: Database.Database) =>
  db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    )
    .all()
    .map((row) => row.name);

describe('store schema migrations', () => {
  it('migrates an empty file to the newest version, in WAL mode', () => {
    const file = path.join(folder, 'empty.db');
    writeFileSync(file, '');
    openSqliteStore(file).close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(storeMigrations.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(tables(db)).toEqual([
      'checkpoints',
      'episodes',
      'evaluation_cases',
      'evaluation_runs',
      'judge_calibrations',
      'meta_decisions',
      'phases',
      'remote_components',
      'resumes',
      'runs',
      'sequential_gates',
      'snapshots',
      'sweep_trials',
      'sweeps',
      'verdict_cache',
      'verdicts',
    ]);
    db.close();
  });

  it('leaves an up-to-date file alone and reports the version it found', () => {
    const db = new Database(':memory:');
    expect(migrateStore(db, ':memory:')).toBe(0);
    expect(migrateStore(db, ':memory:')).toBe(storeMigrations.length);
    db.close();
  });

  it('refuses a file from a newer arena without touching it', () => {
    const file = path.join(folder, 'future.db');
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    expect(() => openSqliteStore(file)).toThrow(StoreSchemaError);
    expect(() => openSqliteStore(file)).toThrow(
      `${file} has store schema version 99, but this arena knows versions up to ${storeMigrations.length}; upgrade arena`,
    );
    const after = new Database(file, { readonly: true });
    expect(tables(after)).toEqual([]);
    after.close();
  });
});
