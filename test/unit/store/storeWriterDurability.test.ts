import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/ports/store/sqlite/sqliteStore.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-durable-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** Run the child until it prints `flushed`, then SIGKILL it. */
function flushThenKill(file: string): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const script = path.join(import.meta.dirname, 'flushThenHang.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', script, file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('flushed')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal === null) reject(new Error(`child exited with ${code}: ${stderr}`));
      else resolve(signal);
    });
  });
}

describe('store writer durability', () => {
  it('keeps every flushed record when the process is killed right after flush()', async () => {
    const file = path.join(folder, 'arena.db');
    expect(await flushThenKill(file)).toBe('SIGKILL');
    const store = openSqliteStore(file);
    expect(store.phases('killed')).toHaveLength(1);
    expect(store.episodes('killed').map((record) => record.episode)).toEqual(
      Array.from({ length: 50 }, (_, index) => index + 1),
    );
    expect(store.latestSnapshot('killed')).toMatchObject({ episode: 50, state: { episode: 50 } });
    store.close();
  });
});
