import { execFileSync } from 'node:child_process';
import { findNatsServer, natsInstallHint } from './support/natsServer.js';
import { hasPostgres, postgresInstallHint } from './support/postgres.js';
import { useRunTemporaryRoot } from './support/runTemporaryRoot.js';

/**
 * Before the tests: give the run its own temporary root before vitest forks
 * its workers (removed at teardown, so a run leaves nothing in the temp folder
 * even where a test forgot to clean up or was killed half-way), make sure the servers
 * that only Debian ships are there (the queue tests start their own
 * `nats-server`, the PostgreSQL store tests their own `postgres`), then build
 * once as `npm run build` does (the library into `dist/`, the `arena` command
 * bundled into `cli/dist/`), so e2e tests run the CLI a user runs. Returns the
 * teardown.
 */
export default function setup(): () => void {
  // vitest calls it for the root config and for each project in it: prepare once per run
  const once = globalThis as { arenaTestsPrepared?: boolean };
  if (once.arenaTestsPrepared) return () => undefined;
  once.arenaTestsPrepared = true;
  const teardown = useRunTemporaryRoot();
  try {
    prepare();
  } catch (error) {
    teardown();
    throw error;
  }
  return teardown;
}

function prepare(): void {
  ensureDebianPackage(
    'nats-server',
    () => findNatsServer() !== null,
    natsInstallHint,
    'the run-queue tests',
  );
  ensureDebianPackage('postgresql', hasPostgres, postgresInstallHint, 'the PostgreSQL store tests');
  // For a quick unit-only loop: ARENA_SKIP_BUILD=1 npx vitest run test/unit/...
  if (process.env.ARENA_SKIP_BUILD === '1') return;
  // What `npm run build` does: the library into dist/ (tsc), then the `arena` command into cli/dist/.
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}

/**
 * No npm package ships these servers (or none that works here): as root with
 * apt-get, install Debian's package, saying so. Where that is impossible only
 * the tests that need it fail, each with one line naming the command.
 */
function ensureDebianPackage(
  name: string,
  present: () => boolean,
  hint: string,
  why: string,
): void {
  if (present()) return;
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    process.stderr.write(`${name} is missing; ${why} will fail until you run: ${hint}\n`);
    return;
  }
  process.stderr.write(
    `${name} is missing: installing Debian's ${name} (apt-get update && apt-get install -y ${name}) for ${why}\n`,
  );
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('apt-get', ['install', '-y', '-qq', name], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch {
    process.stderr.write(`installing ${name} failed; ${why} will fail until you run: ${hint}\n`);
    return;
  }
  // installed where the tests do not look (e.g. /usr/sbin off PATH): say so now, not in each test
  if (!present()) {
    process.stderr.write(
      `installed ${name}, but the tests still cannot find it; ${why} will fail until you run: ${hint}\n`,
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
