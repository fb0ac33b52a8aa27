import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A resolve hook that logs every module a CLI process's main thread loads, to
 * see what a command pulls in: pass `env` to the process, read `loaded()` after.
 * ES modules are logged by a module hook, CommonJS ones (a driver the library
 * loads with `require` at first use) by Node's require resolution.
 * The `arena` bundle holds arena's modules and the packages it bundles (pg,
 * the NATS client, commander, zod): each loaded bundle file adds the modules
 * inside it, as `node_modules/pg/lib/index.js (in cli/dist/chunks/…)` or
 * `src/actors/judging/judgeWorker.ts (in …)`, so `loaded()` names a module
 * whether it loads from node_modules or a chunk.
 * Its files go into `folder`, named after `name`.
 */
export function moduleLog(
  folder: string,
  name: string,
): { env: NodeJS.ProcessEnv; loaded: () => string } {
  const log = path.join(folder, `${name}.log`);
  const hooks = path.join(folder, `${name}-hooks.mjs`);
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}\n`,
  );
  const register = path.join(folder, `${name}-register.mjs`);
  writeFileSync(
    register,
    `import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
register(${JSON.stringify(`file://${hooks}`)});
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolveFilename.apply(this, args);
  appendFileSync(${JSON.stringify(log)}, (isAbsolute(file) ? pathToFileURL(file).href : file) + '\\n');
  return file;
};\n`,
  );
  writeFileSync(log, '');
  return {
    env: { NODE_OPTIONS: `--import=${register}` },
    loaded: () => withBundled(readFileSync(log, 'utf8')),
  };
}

/** The log, then the modules esbuild put in each loaded `cli/dist` file (its `// node_modules/…` and `// src/…` lines). */
function withBundled(logged: string): string {
  const bundles = new Set(
    logged.split('\n').filter((line) => /^file:.*\/cli\/dist\/.*\.js$/.test(line)),
  );
  const inside = [...bundles].flatMap((url) => {
    const file = fileURLToPath(url);
    const where = file.slice(file.lastIndexOf('/cli/dist/') + 1);
    return [...readFileSync(file, 'utf8').matchAll(/^\s*\/\/ ((?:node_modules|src)\/\S+)$/gm)].map(
      (match) => `${match[1]} (in ${where})\n`,
    );
  });
  return logged + inside.join('');
}
