import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { hangGuard } from './test/support/hangGuard.js';

// The JSON report .ci/run counts, only where it asks (ARENA_TEST_REPORT=<file>): a run of one
// file leaves nothing in the checkout.
const jsonReport = process.env.ARENA_TEST_REPORT;

// Test files at once. Most e2e files wait on arena processes and servers rather than compute,
// so a 2-core machine runs 3 files at a time (vitest's default is one fewer than the cores,
// i.e. one at a time here). ARENA_TEST_WORKERS=<n> overrides it.
const workers = Number(process.env.ARENA_TEST_WORKERS ?? 3);

/** The unit and property tests. */
export const unitAndPropertyFiles = ['test/unit/**/*.test.ts', 'test/property/**/*.test.ts'];

/** Unit tests that mock a module or stub timers: each needs a module graph of its own. */
const mockingFiles = [
  'test/unit/fuzz/invariantsDetectBugs.test.ts',
  'test/unit/queue/runStatusHints.test.ts',
  'test/unit/store/storeWriter.test.ts',
  'test/unit/store/verdictWriter.test.ts',
];

/** Property tests that start a NATS or PostgreSQL server or run fleets of `arena` processes. */
export const serverPropertyFiles = [
  'test/property/natsKills.test.ts',
  'test/property/postgresFaults.test.ts',
  'test/property/postgresStore.test.ts',
  'test/property/poisonRuns.test.ts',
  'test/property/queueGiveUp.test.ts',
  'test/property/queueSchedules.test.ts',
  'test/property/remoteReplyForgery.test.ts',
  'test/property/remoteRequests.test.ts',
  'test/property/judgeStore.test.ts',
];

/**
 * Two projects. The unit and property tests share one module graph per worker
 * (`isolate: false`): importing arena's modules afresh for each of those files
 * cost more than their tests. Everything that starts processes or servers, and
 * the few files that mock modules, keep a graph of their own per file.
 */
export function projects(isolatedFiles: readonly string[]): TestProjectInlineConfiguration[] {
  return [
    {
      extends: true,
      test: {
        name: 'shared',
        include: unitAndPropertyFiles,
        exclude: [...mockingFiles, ...serverPropertyFiles],
        isolate: false,
      },
    },
    { extends: true, test: { name: 'isolated', include: [...mockingFiles, ...isolatedFiles] } },
  ];
}

export default defineConfig({
  test: {
    globalSetup: ['test/globalSetup.ts'],
    // arena as a user's shell runs it: npm's marks cleared (test/support/userShell.ts)
    setupFiles: ['test/support/userShell.ts', 'test/support/openNatsServers.ts'],
    // hang guards, scaled for a loaded machine (ARENA_TEST_TIMEOUT_SCALE, default 3)
    testTimeout: hangGuard(60_000),
    hookTimeout: hangGuard(60_000),
    pool: 'forks',
    maxWorkers: workers,
    projects: projects([
      'test/e2e/**/*.test.ts',
      'test/contract/**/*.test.ts',
      ...serverPropertyFiles,
    ]),
    reporters: jsonReport ? ['default', 'json'] : ['default'],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
  },
});
