import { execFileSync } from 'node:child_process';

/** Build `dist/` once before the tests, so e2e tests run the CLI a user runs. */
export default function setup(): void {
  // For a quick unit-only loop: ARENA_SKIP_BUILD=1 npx vitest run test/unit/...
  if (process.env.ARENA_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
