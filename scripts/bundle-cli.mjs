/**
 * `npm run build`'s second step: the `arena` command as one ES module bundle
 * (dist/cli/main.js, over the one tsc wrote) with a chunk per command in
 * dist/cli/chunks/, so that `arena judge` loads one file for its code instead
 * of resolving and compiling some 800 modules: `arena --help` measured
 * 0.32-0.38 s unbundled and 0.18-0.20 s bundled, `arena judge`'s first request
 * left 80-110 ms sooner. The library (dist/index.js and its entries) stays
 * tsc's plain modules for embedders.
 *
 * Kept out of the bundle: native addons (better-sqlite3, pg-native), pino
 * with pino-pretty (its transports start workers by file path), and the
 * clients only distributed work loads, pg and NATS (the e2e tests check that a
 * SQLite run loads neither: each loads from node_modules, by name). rxjs is taken
 * from its ES module build: its exports send Node to the CommonJS one, whose
 * index loads every operator. CommonJS packages inside the bundle get a
 * `require` made for the bundle's own file.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist', 'cli');

await rm(path.join(outdir, 'chunks'), { recursive: true, force: true });
await build({
  entryPoints: { main: path.join(root, 'src', 'cli', 'main.ts') },
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: ['better-sqlite3', 'pg-native', 'pino', 'pino-pretty', 'pg', '@nats-io/*'],
  alias: { rxjs: path.join(root, 'node_modules', 'rxjs', 'dist', 'esm', 'index.js') },
  banner: {
    js: "import { createRequire as __arenaCreateRequire } from 'node:module'; const require = __arenaCreateRequire(import.meta.url);",
  },
  allowOverwrite: true,
  logLevel: 'warning',
});
