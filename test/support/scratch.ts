import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/** Folders made outside a test (at module level or in `beforeAll`): removed after the file. */
const fileFolders = new Set<string>();

function removeFileFolders(): void {
  for (const folder of fileFolders) rmSync(folder, { recursive: true, force: true });
  fileFolders.clear();
}

try {
  // Registered when a test file first imports this module, so it runs after that file's own hooks.
  afterAll(removeFileFolders);
} catch {
  // Outside vitest (bench/ uses these helpers): the folders go when the process exits.
  process.once('exit', removeFileFolders);
}

/**
 * A new empty folder `<os temp>/<prefix>XXXXXX`, removed however the test ends: made inside a
 * test (also inside a fast-check property), when that test finishes, passed or failed; made at
 * module level or in a `beforeAll`, after the test file's last test; outside vitest (a bench),
 * when the process exits.
 *
 * @example
 * ```ts
 * it('writes the store', () => {
 *   const folder = scratchFolder('arena-store-');
 *   // ... folder is gone once this test ends
 * });
 * ```
 */
export function scratchFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  try {
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  } catch {
    // Not inside a test: no test to hang the removal on, so the file's afterAll (or exit) does it.
    fileFolders.add(folder);
  }
  return folder;
}

/**
 * A new empty folder like `scratchFolder`'s, kept until the test file's last test has run, even
 * when made inside a test: for what a file's tests share once made (a copy of the CLI).
 *
 * @example
 * ```ts
 * it('copies once', () => {
 *   const folder = fileScratchFolder('arena-copy-');
 *   // ... folder stays for the file's later tests, and goes after the last one
 * });
 * ```
 */
export function fileScratchFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  fileFolders.add(folder);
  return folder;
}
