import { defineConfig } from 'vitest/config';
import base, { projects } from './vitest.config.js';

/**
 * `npm run test:quick`: the edit-test loop. The unit and property tests,
 * without the property tests that start a NATS or PostgreSQL server or run
 * fleets of `arena` processes (those run in `npm test`). The build is the
 * global set-up's, as in `npm test`.
 */
export default defineConfig({
  ...base,
  test: { ...base.test, projects: projects([]) },
});
