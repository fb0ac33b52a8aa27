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
 * workers by file path). The clients only distributed work loads, pg and
 * NATS, are bundled, in the chunks of the modules that import them: loaded
 * from node_modules they cost a worker ~50 ms of start-up in resolving and
 * compiling ~110 CommonJS files (the e2e tests still see that a SQLite run
 * loads neither, by the `// node_modules/...` lines esbuild writes in each
 * chunk; PostgreSQL run stores still load pg from node_modules, by path, in
 * their connection's worker thread). The optional peers the library loads with `require`
 * at first use (dagre, fast-check) and chart.js's browser bundle, which a
 * report inlines, are found the same way, from the bundle's folder. rxjs
 * is taken from its ES module build: its exports send Node to the CommonJS
 * one, whose index loads every operator. CommonJS packages inside the bundle
 * get a `require` made for the bundle's own file. zod's namespace of ~50
 * message locales (360 KB of source, parsed by every command that loads zod)
 * is built as English alone: arena never switches zod's locale, and zod's
 * own default is the English one.
 */
import { readFile, rm } from 'node:fs/promises';
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

/**
 * Start-up costs the bundled packages pay at import for nothing the CLI does,
 * taken out of their source as it is bundled; the build fails when a text to
 * replace is no longer there (a new version: look again).
 * - pg asks whether it runs in a Cloudflare Worker by making a `Response`,
 *   which loads Node's whole fetch (undici) at start-up: 20-40 ms. The CLI
 *   runs on Node alone.
 * - commander requires node:child_process at import, for executable
 *   subcommands, which arena has none of: 10-17 ms. Loaded at first spawn.
 */
const sourcePatches = [
  {
    file: path.join(root, 'node_modules', 'pg', 'lib', 'stream.js'),
    find: 'function isCloudflareRuntime() {',
    replace:
      'function isCloudflareRuntime() {\n  return false // arena: the CLI runs on Node (scripts/bundle-cli.mjs)',
  },
  {
    file: path.join(root, 'node_modules', 'commander', 'lib', 'command.js'),
    find: "const childProcess = require('node:child_process');",
    replace:
      "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
];

const patchedSources = {
  name: 'patched-sources',
  setup(builder) {
    for (const { file, find, replace } of sourcePatches) {
      builder.onLoad(
        { filter: new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`) },
        async () => {
          const source = await readFile(file, 'utf8');
          if (!source.includes(find))
            throw new Error(`${file}: no longer holds ${JSON.stringify(find)}`);
          return {
            contents: source.replace(find, replace),
            loader: 'js',
            resolveDir: path.dirname(file),
          };
        },
      );
    }
  },
};

/** Peers bundled here, not loaded from node_modules: `importWithPeers` does not look for them (src/ports/runtime/optionalPeers.ts). */
const bundledPeers = ['pg', '@nats-io/jetstream', '@nats-io/transport-node'];

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
  external: ['better-sqlite3', 'pg-native', 'pino', 'pino-pretty'],
  define: { ARENA_BUNDLED_PEERS: JSON.stringify(bundledPeers.join(' ')) },
  alias: { rxjs: path.join(root, 'node_modules', 'rxjs', 'dist', 'esm', 'index.js') },
  banner: {
    js: "import { createRequire as __arenaCreateRequire } from 'node:module'; const require = __arenaCreateRequire(import.meta.url);",
  },
  plugins: [englishZodLocales, patchedSources],
  logLevel: 'warning',
});
