import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sparticuzChromium from '@sparticuz/chromium';
import { type Browser, chromium } from 'playwright-core';

/**
 * Flags for a quiet headless Chromium in a sandbox with no outside network. Playwright adds
 * `--headless` and gives each launch a new empty `--user-data-dir` of its own (it rejects one here).
 */
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The version of `@sparticuz/chromium` installed, read from its own package.json. */
function shippedChromiumVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  // The exports map hides package.json and build/ has its own, so walk up to the one named.
  for (
    let folder = path.dirname(entry);
    folder !== path.dirname(folder);
    folder = path.dirname(folder)
  ) {
    const manifestPath = path.join(folder, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      name?: string;
      version?: string;
    };
    if (manifest.name === '@sparticuz/chromium' && typeof manifest.version === 'string') {
      return manifest.version;
    }
  }
  throw new Error(`no @sparticuz/chromium package.json above ${entry}`);
}

/**
 * Extract the npm-shipped Chromium once into `<os temp>/arena-chromium-<version>` and return
 * that folder, kept between test runs: `<os temp>` is the temp folder as it was before the run
 * (`ARENA_TEST_SHARED_TMPDIR`, set by test/globalSetup.ts), not the run's own temporary root
 * that is removed at its end. The package extracts into `os.tmpdir()`, so it is pointed at a private staging
 * folder (through TMPDIR) that is renamed into place only when complete: another version never
 * shares the folder, and a parallel or interrupted extraction never leaves a half-written binary.
 */
async function extractShippedChromium(): Promise<string> {
  const sharedTemp = process.env.ARENA_TEST_SHARED_TMPDIR ?? tmpdir();
  const folder = path.join(sharedTemp, `arena-chromium-${shippedChromiumVersion()}`);
  if (existsSync(path.join(folder, 'chromium'))) return folder;
  const staging = mkdtempSync(`${folder}-extracting-`);
  const previousTmpdir = process.env.TMPDIR;
  try {
    process.env.TMPDIR = staging;
    const extracted = await sparticuzChromium.executablePath();
    if (extracted !== path.join(staging, 'chromium')) {
      throw new Error(`@sparticuz/chromium extracted to ${extracted}, expected ${staging}`);
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
  }
  // Only the bundled fonts, so text renders the same whatever fonts the machine has.
  writeFileSync(
    path.join(staging, 'fonts', 'arena-fonts.conf'),
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      '<fontconfig>',
      `  <dir>${path.join(folder, 'fonts', 'fonts')}</dir>`,
      `  <cachedir>${path.join(folder, 'fonts-cache')}</cachedir>`,
      '</fontconfig>',
      '',
    ].join('\n'),
  );
  try {
    renameSync(staging, folder);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another test process finished the same extraction first: use its copy.
    if (!existsSync(path.join(folder, 'chromium'))) throw error;
  }
  return folder;
}

let extraction: Promise<string> | undefined;

/** A launch failure with the cause, and for a missing system library the Debian package to install. */
function launchError(executablePath: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const library = /error while loading shared libraries: (\S+?):/.exec(message)?.[1];
  const hint = library
    ? `: it cannot load the system library ${library} (on Debian: apt-get install -y libnss3 libnspr4 libexpat1)`
    : '';
  return new Error(`cannot launch the npm-shipped Chromium ${executablePath}${hint}\n${message}`, {
    cause: error,
  });
}

/**
 * Launch headless Chromium from `@sparticuz/chromium` through playwright-core, extracting it on
 * first use. No system browser is needed or used. Each browser gets a temporary folder of its
 * own (its TMPDIR, for the `.org.chromium.Chromium.*` files it makes), removed when it closes or
 * crashes, so a browser that did not tidy up leaves nothing behind.
 *
 * @example
 * ```ts
 * const browser = await launchChromium();
 * const page = await browser.newPage();
 * await browser.close();
 * ```
 */
export async function launchChromium(): Promise<Browser> {
  extraction ??= extractShippedChromium();
  const folder = await extraction;
  const executablePath = path.join(folder, 'chromium');
  const temporary = mkdtempSync(path.join(tmpdir(), 'arena-chromium-'));
  const removeTemporary = (): void => rmSync(temporary, { recursive: true, force: true });
  try {
    const browser = await chromium.launch({
      executablePath,
      headless: true,
      args: chromiumArgs,
      env: {
        ...process.env,
        TMPDIR: temporary,
        FONTCONFIG_FILE: path.join(folder, 'fonts', 'arena-fonts.conf'),
      },
    });
    browser.on('disconnected', removeTemporary);
    return browser;
  } catch (error) {
    removeTemporary();
    throw launchError(executablePath, error);
  }
}
