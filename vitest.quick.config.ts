import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:quick`: the edit-test loop. The unit and property tests,
 * without the property tests that start a NATS or PostgreSQL server or run
 * fleets of `arena` processes (those run in `npm test`). The build is the
 * global set-up's, as in `npm test`.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/unit/**/*.test.ts', 'test/property/**/*.test.ts'],
    exclude: [
      'test/property/natsKills.test.ts',
      'test/property/postgresFaults.test.ts',
      'test/property/postgresStore.test.ts',
      'test/property/poisonRuns.test.ts',
      'test/property/queueGiveUp.test.ts',
      'test/property/queueSchedules.test.ts',
      'test/property/remoteReplyForgery.test.ts',
      'test/property/remoteRequests.test.ts',
      'test/property/judgeStore.test.ts',
    ],
  },
});
