import { defineConfig } from 'vitest/config';
import { hangGuard } from './test/support/hangGuard.js';

// The JSON report .ci/run counts, only where it asks (ARENA_TEST_REPORT=<file>): a run of one
// file leaves nothing in the checkout.
const jsonReport = process.env.ARENA_TEST_REPORT;

// Test files at once. Most e2e files wait on arena processes and servers rather than compute,
// so a 2-core machine runs 3 files at a time (vitest's default is one fewer than the cores,
// i.e. one at a time here). ARENA_TEST_WORKERS=<n> overrides it.
const workers = Number(process.env.ARENA_TEST_WORKERS ?? 3);

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
    maxWorkers: workers,
    reporters: jsonReport ? ['default', 'json'] : ['default'],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
  },
});
