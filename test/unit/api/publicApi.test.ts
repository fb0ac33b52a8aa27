import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli.js';
import { barrelNames, findDeclaration } from '../../support/publicApi.js';

/** The package's entry points, from package.json's `exports`, with their source barrels. */
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, { types: string; import: string }>;
};
const entries = Object.entries(manifest.exports).map(([subpath, target]) => ({
  specifier: subpath === '.' ? 'arena-runtime' : `arena-runtime/${subpath.slice(2)}`,
  target,
  source: path.join(repoRoot, target.import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
}));

// Helpers a host app never calls: they belong behind the modules that use them.
const internals = [
  'svgNumber',
  'textWidth',
  'smoothPath',
  'clipAtEntry',
  'escapeXml',
  'escapeHtml',
  'stateText',
  'svgFontFamily',
  'decodeStoredJson',
  'encodeStoredJson',
  'deepFreeze',
  'isPlainObject',
  'closestName',
  'didYouMean',
  'messagesSha256',
  'readAnsweredAttempt',
  'retryDelayMs',
  'solveLinDistFlow',
  'toJsonSafe',
];

describe('the public API', () => {
  it('maps every subpath to a built declaration and module of one source barrel', () => {
    expect(entries.map((entry) => entry.specifier)).toEqual([
      'arena-runtime',
      'arena-runtime/termination',
      'arena-runtime/sweep',
      'arena-runtime/definition',
      'arena-runtime/judge',
      'arena-runtime/experiment',
      'arena-runtime/store',
      'arena-runtime/inspect',
      'arena-runtime/diagram',
      'arena-runtime/report',
      'arena-runtime/fuzz',
      'arena-runtime/postgres',
      'arena-runtime/nats',
    ]);
    for (const { target, source } of entries) {
      expect(target.types).toBe(target.import.replace(/\.js$/, '.d.ts'));
      expect(existsSync(source), source).toBe(true);
    }
  });

  it('writes each barrel as export lists and whole re-exported modules only (no code)', () => {
    for (const { source } of entries) {
      const text = readFileSync(source, 'utf8');
      const rest = text
        .replace(/\/\*\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '')
        .replace(/export\s+(type\s+)?\{[^}]*\}\s*from\s*'[^']+';/g, '')
        .replace(/export\s+(type\s+)?\*\s+from\s*'[^']+';/g, '')
        .trim();
      expect(rest, source).toBe('');
    }
  });

  it('exports at run time exactly the values its barrel lists', async () => {
    for (const { source } of entries) {
      const module = (await import(source)) as Record<string, unknown>;
      expect(Object.keys(module).sort(), source).toEqual(barrelNames(source).values);
    }
  });

  it('keeps internal helpers out of every entry point', () => {
    for (const { specifier, source } of entries) {
      const { values, types } = barrelNames(source);
      expect(
        [...values, ...types].filter((name) => internals.includes(name)),
        specifier,
      ).toEqual([]);
    }
  });

  it('matches the committed snapshot of every entry point (values and types apart)', async () => {
    const sections = entries.map(({ specifier, source }) => {
      const { values, types } = barrelNames(source);
      return [
        `## ${specifier}`,
        `values (${values.length}):`,
        ...values.map((name) => `  ${name}`),
        `types (${types.length}):`,
        ...types.map((name) => `  ${name}`),
      ].join('\n');
    });
    await expect(`${sections.join('\n\n')}\n`).toMatchFileSnapshot('./publicApi.snapshot.txt');
  });

  it('documents every value with TSDoc and an @example, and every type with a doc comment', () => {
    const undocumented: string[] = [];
    for (const { specifier, source } of entries) {
      const { values, types } = barrelNames(source);
      for (const [kind, names] of [
        ['value', values],
        ['type', types],
      ] as const) {
        for (const name of names) {
          const { doc, file } = findDeclaration(source, name, kind);
          const needed = kind === 'value' ? /@example/ : /\S/;
          if (doc === null || !needed.test(doc.replace(/^\/\*\*|\*\/$/g, ''))) {
            undocumented.push(`${specifier}: ${name} (${path.relative(repoRoot, file)})`);
          }
        }
      }
    }
    expect(undocumented).toEqual([]);
  });

  it('gives every entry point, with its barrel, a section of docs/api.md, which the README links', () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain('](docs/api.md)');
    const api = readFileSync(path.join(repoRoot, 'docs/api.md'), 'utf8');
    const sections = [...api.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(sections).toEqual(entries.map((entry) => entry.specifier));
    for (const { specifier, source } of entries) {
      const barrel = path.relative(repoRoot, source);
      expect(api, specifier).toContain(`from [\`${barrel}\`](../${barrel})`);
    }
  });
});
