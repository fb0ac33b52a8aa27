import { afterAll, beforeAll } from 'vitest';
import { openPostgresStore } from '../../src/ports/store/postgres/postgresStore.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import { describeRunStoreContract } from './runStoreContract.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(async () => {
  await server?.stop();
});
let count = 0;

describeRunStoreContract('PostgreSQL', {
  async newStore() {
    const uri = await server.createDatabase(`contract_${++count}`);
    return (options) => openPostgresStore(uri, options);
  },
});
