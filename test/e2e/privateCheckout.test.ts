import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, repoRoot } from '../support/cli.js';
import { nestedVitest } from '../support/nestedVitest.js';
import { scratchFolder } from '../support/scratch.js';

/**
 * The checkout as it is (tracked and new files, edits included) copied into
 * `<private>/arena`, `<private>` mode 0700 like a home or `mktemp -d`; its
 * `node_modules` a symlink to this one's (`npm ci` takes minutes) and its
 * `cli/dist` this run's build, so the copy's tests run without building.
 */
function privateCopyOfCheckout(): string {
  const privateFolder = scratchFolder('arena-private-');
  chmodSync(privateFolder, 0o700);
  const checkout = path.join(privateFolder, 'arena');
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: repoRoot,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((file) => file !== '' && existsSync(path.join(repoRoot, file)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
    copyFileSync(path.join(repoRoot, file), path.join(checkout, file));
  }
  symlinkSync(
    realpathSync(path.join(repoRoot, 'node_modules')),
    path.join(checkout, 'node_modules'),
  );
  cpSync(path.join(repoRoot, 'cli/dist'), path.join(checkout, 'cli/dist'), { recursive: true });
  return checkout;
}

/** Every path under `folder` but `node_modules` (a link to the shared install, vite's cache). */
function entriesOf(folder: string, prefix = ''): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules')
    .flatMap((entry) => {
      const shown = prefix + entry.name;
      return entry.isDirectory()
        ? [shown, ...entriesOf(path.join(folder, entry.name), `${shown}/`)]
        : [shown];
    })
    .sort();
}

describe('a checkout in a folder only its owner may enter', () => {
  let checkout = '';
  let before: string[] = [];
  let run: CliRun;
  beforeAll(async () => {
    checkout = privateCopyOfCheckout();
    before = entriesOf(checkout);
    run = await nestedVitest(['test/e2e/store.test.ts'], {
      cwd: checkout,
      env: { ARENA_SKIP_BUILD: '1' },
    });
  }, 180_000);

  it('passes every test of test/e2e/store.test.ts, the ones that run arena as nobody too', () => {
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // every test passed: none failed, none skipped
    expect(run.stdout).toMatch(/Tests\s+(\d+) passed \(\1\)/);
  });

  it('writes nothing into the checkout in a run of one test file (no .vitest/report.json)', () => {
    expect(existsSync(path.join(checkout, '.vitest'))).toBe(false);
    expect(entriesOf(checkout)).toEqual(before);
  });
});
