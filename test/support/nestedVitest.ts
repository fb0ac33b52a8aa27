import path from 'node:path';
import { type CliRun, repoRoot, runProcess } from './cli.js';

/**
 * A vitest run of some test files, started as a user starts one (`npx vitest run <files>`):
 * in `cwd` (the checkout unless given), with `env` over this process's environment minus the
 * outer run's worker variables and its JSON report request (`ARENA_TEST_REPORT`).
 *
 * @example
 * ```ts
 * const run = await nestedVitest(['test/e2e/termination.test.ts'], { env: { ARENA_SKIP_BUILD: '1' } });
 * run.code; // 0 when every test passed
 * ```
 */
export function nestedVitest(
  files: readonly string[],
  options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  const cwd = options.cwd ?? repoRoot;
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('VITEST') && name !== 'ARENA_TEST_REPORT',
    ),
  );
  return runProcess(
    process.execPath,
    [path.join(cwd, 'node_modules/vitest/vitest.mjs'), 'run', ...files],
    { cwd, env: { ...inherited, NO_COLOR: '1', ...options.env } },
  );
}
