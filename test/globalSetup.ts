import { execFileSync } from 'node:child_process';
import { findNatsServer, natsInstallHint } from './support/natsServer.js';

/**
 * Before the tests: make sure `nats-server` is on PATH (the queue tests start
 * their own), then build `dist/` once, so e2e tests run the CLI a user runs.
 */
export default function setup(): void {
  ensureNatsServer();
  // For a quick unit-only loop: ARENA_SKIP_BUILD=1 npx vitest run test/unit/...
  if (process.env.ARENA_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}

/**
 * No npm package ships nats-server: as root with apt-get, install Debian's.
 * Where that is impossible only the NATS tests fail, each with one line naming the command.
 */
function ensureNatsServer(): void {
  if (findNatsServer() !== null) return;
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    process.stderr.write(
      `nats-server is missing; the NATS tests will fail until you run: ${natsInstallHint}\n`,
    );
    return;
  }
  process.stderr.write(
    "nats-server is missing: installing Debian's nats-server (apt-get update && apt-get install -y nats-server) for the run-queue tests\n",
  );
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('apt-get', ['install', '-y', '-qq', 'nats-server'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch {
    process.stderr.write(
      `installing nats-server failed; the NATS tests will fail until you run: ${natsInstallHint}\n`,
    );
  }
}

function onPath(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
