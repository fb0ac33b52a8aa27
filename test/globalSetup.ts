import { execFileSync } from 'node:child_process';

/** Build `dist/` once before the tests, so e2e tests run the CLI a user runs. */
export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
