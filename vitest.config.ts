import { defineConfig } from 'vitest/config';
import { hangGuard } from './test/support/hangGuard.js';

// The JSON report .ci/run counts, only where it asks (ARENA_TEST_REPORT=<file>): a run of one
// file leaves nothing in the checkout.
const jsonReport = process.env.ARENA_TEST_REPORT;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    // arena as a user's shell runs it: npm's marks cleared (test/support/userShell.ts)
    setupFiles: ['test/support/userShell.ts', 'test/support/openNatsServers.ts'],
    // hang guards, scaled for a loaded machine (ARENA_TEST_TIMEOUT_SCALE, default 3)
    testTimeout: hangGuard(60_000),
    hookTimeout: hangGuard(60_000),
    pool: 'forks',
    reporters: jsonReport ? ['default', 'json'] : ['default'],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
  },
});
