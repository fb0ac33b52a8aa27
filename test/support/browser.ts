import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, which `.ci/run` installs when it is missing. */
export const chromiumPath = '/usr/bin/chromium';

/** Flags for a quiet headless Chromium on a machine with no outside network. */
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launch headless Chromium through playwright-core, or say how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`no Chromium at ${chromiumPath}: apt-get install -y chromium (.ci/run does)`);
  }
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}
