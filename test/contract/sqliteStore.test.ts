import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteStore } from '../../src/ports/store/sqlite/sqliteStore.js';
import { describeRunStoreContract } from './runStoreContract.js';

const folder = mkdtempSync(path.join(tmpdir(), 'arena-contract-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let count = 0;

describeRunStoreContract('SQLite', {
  async newStore() {
    const file = path.join(folder, `store-${++count}.db`);
    return (options) => openSqliteStore(file, options);
  },
});
