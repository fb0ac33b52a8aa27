/**
 * `npm run build`: the library (dist/, tsc's modules and declarations, from
 * an empty folder so no file of an old build is published), the viewer
 * page's browser bundle (dist/viewer/page/, scripts/bundle-viewer.mjs), and
 * then the `arena` command's bundle (cli/dist/, scripts/bundle-cli.mjs).
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

rmSync(path.join(root, 'dist'), { recursive: true, force: true });
execFileSync(
  process.execPath,
  [
    path.join(root, 'node_modules/typescript/bin/tsc'),
    '-p',
    path.join(root, 'tsconfig.build.json'),
  ],
  { stdio: 'inherit' },
);
await import('./bundle-viewer.mjs');
await import('./bundle-cli.mjs');
