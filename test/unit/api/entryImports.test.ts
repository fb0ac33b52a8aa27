import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { optionalPeers } from '../../../src/ports/runtime/optionalPeers.js';
import { repoRoot } from '../../support/cli.js';

/** The package's entry points, from package.json's `exports`, as source files. */
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, { import: string }>;
};
const entries = Object.entries(manifest.exports).map(([subpath, target]) => ({
  subpath,
  source: path.join(repoRoot, target.import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
}));

// `import type` and `export type` are erased; every other import or re-export loads its module
// (with verbatimModuleSyntax, even `import { type A } from 'x'` stays as `import 'x'`).
const staticImport = /^\s*(?:import|export)\s+(type\s+)?(?:[^;'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

/** Every package a module loads before its code runs, following its relative imports. */
function packagesReachedFrom(entry: string): Map<string, string> {
  const reached = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const [, typeOnly, specifier] of code.matchAll(staticImport)) {
      if (typeOnly !== undefined || specifier === undefined) continue;
      if (specifier.startsWith('.')) {
        visit(path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts'));
      } else if (!specifier.startsWith('node:')) {
        const name = specifier.startsWith('@')
          ? specifier.split('/').slice(0, 2).join('/')
          : specifier.split('/')[0]!;
        if (!reached.has(name)) reached.set(name, path.relative(repoRoot, file));
      }
    }
  };
  visit(entry);
  return reached;
}

describe('what each entry point loads', () => {
  const peers = new Set(Object.keys(optionalPeers));

  it.each(entries)('$subpath loads no optional peer before it is used', ({ source }) => {
    const offenders = [...packagesReachedFrom(source)]
      .filter(([name]) => peers.has(name))
      .map(([name, file]) => `${file} imports ${name}`);
    expect(offenders).toEqual([]);
  });

  it('loads only the hard dependencies and xstate from the root entry', () => {
    const root = entries.find((entry) => entry.subpath === '.')!;
    // pino, a hard dependency too, is required at a logger's first written line (ports/runtime/logger.ts)
    expect([...packagesReachedFrom(root.source).keys()].sort()).toEqual([
      'rxjs',
      'xstate',
      'yaml',
      'zod',
    ]);
  });

  it('sees a static import of a driver where there is one', () => {
    // the adapters themselves do import their drivers; they are loaded by import() only
    const adapter = path.join(repoRoot, 'src/ports/nats/jetStreamRunQueue.ts');
    expect([...packagesReachedFrom(adapter).keys()]).toContain('@nats-io/jetstream');
  });
});
