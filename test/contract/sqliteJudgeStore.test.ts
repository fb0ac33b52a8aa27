import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteJudgeStore } from '../../src/ports/store/sqlite/sqliteJudgeStore.js';
import { describeJudgeStoreContract } from './judgeStoreContract.js';

const folder = mkdtempSync(path.join(tmpdir(), 'arena-judge-contract-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let count = 0;

describeJudgeStoreContract('SQLite', {
  async newStore() {
    const file = path.join(folder, `store-${++count}.db`);
    return async (options) => openSqliteJudgeStore(file, options);
  },
});
