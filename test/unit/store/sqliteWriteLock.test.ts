import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/ports/store/sqlite/sqliteStore.js';
import type { RunStore } from '../../../src/ports/store/store.js';
import { RunLeasedError } from '../../../src/ports/store/storeErrors.js';
import { sampleClock, sampleEpisode, sampleRunFile } from './sampleRun.js';

/**
 * Another writer of the same file, as another process is one: its own
 * connection (plain better-sqlite3, 5 s busy timeout) in a worker thread. It
 * waits for `go`, then writes a count of the run's episodes into the run's
 * error column (a text column), and posts what it counted.
 */
const otherWriter = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const go = new Int32Array(workerData.signal);
parentPort.postMessage('ready');
Atomics.wait(go, 0, 0);
try {
  const counted = db
    .prepare("UPDATE runs SET error = (SELECT count(*) FROM episodes WHERE run_id = ?) WHERE run_id = ? RETURNING error")
    .get(workerData.runId, workerData.runId);
  parentPort.postMessage({ counted: counted.error });
} catch (error) {
  parentPort.postMessage({ failed: error.code ?? String(error) });
}
db.close();
`;

const runId = 'r1';
let folder: string;
let file: string;
let store: RunStore;

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-write-lock-'));
  file = path.join(folder, 'arena.db');
  store = openSqliteStore(file, { clock: sampleClock() });
  store.createRun({ runId, uid: 'u', seed: 1, runFile: sampleRunFile, runFilePath: '/r.yaml' });
  store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('SQLite write transactions against another writer', () => {
  it('read-then-write transactions take the write lock up front, so the other writer waits instead of the store failing with "database is locked" (SQLITE_BUSY_SNAPSHOT of a deferred one)', async () => {
    const signal = new SharedArrayBuffer(4);
    const worker = new Worker(otherWriter, {
      eval: true,
      workerData: {
        file,
        runId,
        signal,
        betterSqlite3: createRequire(import.meta.url).resolve('better-sqlite3'),
      },
    });
    const messages: unknown[] = [];
    const ready = new Promise<void>((resolve) =>
      worker.on('message', (message) => {
        messages.push(message);
        if (message === 'ready') resolve();
      }),
    );
    const done = new Promise<void>((resolve) => worker.on('exit', () => resolve()));
    await ready;
    // a batch as the runner writes one: it reads first (the lease, the run), then writes
    store.transaction(() => {
      expect(store.getRun(runId).status).toBe('running');
      const go = new Int32Array(signal);
      Atomics.store(go, 0, 1);
      Atomics.notify(go, 0);
      // give the other writer time to try its write while this transaction is open
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      store.recordEpisode(sampleEpisode(runId, 0, 1));
    });
    await done;
    // the other writer waited for this commit: it saw the episode written inside the transaction
    expect(messages.at(-1)).toEqual({ counted: '1' });
    expect(store.episodes(runId)).toHaveLength(1);
  });

  it('opening a current store and asking for a run another owner holds answer at once, while another process holds the write lock', () => {
    const holder = { id: 'pid 1 on lab-1 (a)', host: 'lab-1', pid: 1 };
    store.acquireLease(runId, { owner: holder, ttlMs: 15_000 });
    // another process stopped in the middle of a write transaction (a SIGSTOP, a debugger)
    const other = new (createRequire(import.meta.url)('better-sqlite3'))(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      // 1 ms: a store that queued for the write lock would fail with SQLITE_BUSY, not name the holder
      const second = openSqliteStore(file, { clock: sampleClock(), busyTimeoutMs: 1 });
      try {
        expect(() =>
          second.acquireLease(runId, {
            owner: { id: 'pid 2 on lab-2 (b)', host: 'lab-2', pid: 2 },
            ttlMs: 15_000,
          }),
        ).toThrow(RunLeasedError);
      } finally {
        second.close();
      }
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });
});
