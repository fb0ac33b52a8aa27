/**
 * `npm run bench [name...]`: run each benchmark in bench/ in its own Node
 * process (with --expose-gc, so heap measurements are honest), one after the
 * other. Every benchmark prints ratios against a baseline it measures itself.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const wanted = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts' && !file.startsWith('_'))
  .map((file) => file.replace(/\.ts$/, ''))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

let failed = 0;
for (const name of benches) {
  process.stdout.write(`\n== bench/${name}.ts ==\n`);
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', path.join(here, `${name}.ts`)],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
