import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli.js';

/** The scripts npm runs when a package is installed (`prepare` too, for a tarball or a git dependency). */
const installScripts = ['preinstall', 'install', 'postinstall', 'prepare'];

const manifest = (folder: string) =>
  JSON.parse(readFileSync(path.join(repoRoot, folder, 'package.json'), 'utf8')) as {
    name: string;
    private?: boolean;
    workspaces?: string[];
    scripts?: Record<string, string>;
  };

describe('installing arena runs no script of arena', () => {
  it('neither published package has an install script: a consumer installs nothing to review', () => {
    for (const folder of ['.', 'cli']) {
      const { name, private: unpublished, scripts = {} } = manifest(folder);
      expect(unpublished, name).toBeUndefined();
      expect(
        Object.keys(scripts).filter((script) => installScripts.includes(script)),
        name,
      ).toEqual([]);
    }
    // publishing still builds what it packs
    expect(manifest('.').scripts?.prepack).toBe('npm run build');
    expect(manifest('cli').scripts?.prepack).toBeDefined();
  });

  it('a clone builds on npm ci through a private workspace that is never published', () => {
    expect(manifest('.').workspaces).toContain('checkout');
    const checkout = manifest('checkout');
    expect(checkout.private).toBe(true);
    expect(checkout.scripts?.prepare).toBe('node ../scripts/build.mjs');
  });
});
