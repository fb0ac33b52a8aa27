/**
 * The viewer page's build (`npm run build`, after tsc): its script bundled
 * for the browser into dist/viewer/page/viewer.js and its stylesheet copied
 * beside it. `arena view` serves both itself, so the page loads nothing from
 * a CDN and runs under `Content-Security-Policy: default-src 'self'`.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const source = path.join(root, 'src', 'viewer', 'page');
const outdir = path.join(root, 'dist', 'viewer', 'page');

await mkdir(outdir, { recursive: true });
await build({
  entryPoints: { viewer: path.join(source, 'main.ts') },
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
await copyFile(path.join(source, 'viewer.css'), path.join(outdir, 'viewer.css'));
