import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A test run's temporary root is `<os temp>/arena-test-run-XXXXXX`. */
export const runRootPrefix = 'arena-test-run-';

/** What a teardown says when tests left entries in the run's root (the first line of it). */
export const leftBehindMessage = 'tests left temporary entries behind';

/**
 * Point TMPDIR at a new `<os temp>/arena-test-run-XXXXXX`, so every `os.tmpdir()` in this
 * process and in what it starts afterwards (vitest's workers, the built CLI, nats-server,
 * postgres) lands in it; the returned teardown names what is left there, removes the root and
 * restores TMPDIR. The temp folder as it was before stays in `ARENA_TEST_SHARED_TMPDIR`, for
 * what is meant to outlive the run (the extracted Chromium, test/support/browser.ts).
 *
 * @example
 * ```ts
 * const teardown = useRunTemporaryRoot();
 * // os.tmpdir() is now /tmp/arena-test-run-a1B2c3
 * teardown(); // the folder is gone, TMPDIR is back
 * ```
 */
export function useRunTemporaryRoot(
  report: (line: string) => void = (line) => process.stderr.write(line),
): () => void {
  const original = tmpdir();
  const root = mkdtempSync(path.join(original, runRootPrefix));
  // Same mode as the folder it stands in for (/tmp: 1777), so postgres, run as its own user, reaches its data.
  chmodSync(root, statSync(original).mode & 0o7777);
  const previous = { TMPDIR: process.env.TMPDIR, shared: process.env.ARENA_TEST_SHARED_TMPDIR };
  // A nested run (a test that runs vitest) keeps the outer run's Chromium cache.
  process.env.ARENA_TEST_SHARED_TMPDIR ??= original;
  process.env.TMPDIR = root;
  return () => {
    // tsx keeps its compile cache in the temporary folder (tsx-<uid>): not a test's leak.
    const left = existsSync(root)
      ? readdirSync(root)
          .filter((entry) => !entry.startsWith('tsx-'))
          .sort()
      : [];
    if (left.length > 0) {
      // Named, so the test that leaks can be found; the root goes anyway.
      const shown = left.slice(0, 10).join(', ') + (left.length > 10 ? ', ...' : '');
      report(`${leftBehindMessage} in ${root} (${left.length}, removed now): ${shown}\n`);
    }
    rmSync(root, { recursive: true, force: true });
    restoreEnv('TMPDIR', previous.TMPDIR);
    restoreEnv('ARENA_TEST_SHARED_TMPDIR', previous.shared);
  };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
