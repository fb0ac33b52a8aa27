import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The JSON report is what .ci/run counts; the default reporter is for people.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest/report.json' },
  },
});
