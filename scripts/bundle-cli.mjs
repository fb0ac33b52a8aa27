/**
 * The `arena` command's build (`npm run build`'s second step, after tsc): one
 * ES module bundle, cli/dist/main.js, with a chunk per command in
 * cli/dist/chunks/, for the `arena-cli` package (cli/package.json), so that
 * `arena judge` loads one file for its code instead of resolving and
 * compiling some 800 modules: `arena --help` measured 0.32-0.38 s unbundled
 * and 0.18-0.20 s bundled, `arena judge`'s first request left 80-110 ms
 * sooner. It is built from src/ (src/cli/main.ts and the library code it
 * uses); the library itself (dist/, arena-runtime) stays tsc's plain modules
 * for embedders, and holds no CLI.
 *
 * Kept out of the bundle, and so dependencies of arena-cli: native addons
 * (better-sqlite3, pg-native), pino with pino-pretty (its transports start
 * workers by file path), and the clients only distributed work loads, pg and
 * NATS (the e2e tests check that a SQLite run loads neither: each loads from
 * node_modules, by name). The optional peers the library loads with `require`
 * at first use (dagre, fast-check) and chart.js's browser bundle, which a
 * report inlines, are found the same way, from the bundle's folder. rxjs
 * is taken from its ES module build: its exports send Node to the CommonJS
 * one, whose index loads every operator. CommonJS packages inside the bundle
 * get a `require` made for the bundle's own file. zod's namespace of ~50
 * message locales (360 KB of source, parsed by every command that loads zod)
 * is built as English alone: arena never switches zod's locale, and zod's
 * own default is the English one.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const zodLocales = path.join(root, 'node_modules', 'zod', 'v4', 'locales');

/** `z.locales` with English alone (see above): the locales' index, wherever zod imports it, is replaced. */
const englishZodLocales = {
  name: 'english-zod-locales',
  setup(builder) {
    builder.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      path.resolve(args.resolveDir, args.path) === path.join(zodLocales, 'index.js')
        ? { path: 'zod-locales', namespace: 'english-zod-locales' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'english-zod-locales' }, () => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(zodLocales, 'en.js'))};`,
      resolveDir: zodLocales,
      loader: 'js',
    }));
  },
};

const outdir = path.join(root, 'cli', 'dist');

await rm(outdir, { recursive: true, force: true });
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
  plugins: [englishZodLocales],
  logLevel: 'warning',
});
