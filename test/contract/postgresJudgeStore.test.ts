import { afterAll, beforeAll } from 'vitest';
import { openPostgresJudgeStore } from '../../src/ports/store/postgres/postgresJudgeStore.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import { describeJudgeStoreContract } from './judgeStoreContract.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(async () => {
  await server?.stop();
});
let count = 0;

describeJudgeStoreContract('PostgreSQL', {
  async newStore() {
    const uri = await server.createDatabase(`judge_contract_${++count}`);
    return (options) => openPostgresJudgeStore(uri, options);
  },
});
