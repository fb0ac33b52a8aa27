import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Every file under `folder` (relative to the repository) whose name matches `pattern`. */
function filesUnder(folder: string, pattern: RegExp): string[] {
  return readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => pattern.test(file))
    .map((file) => path.join(folder, file));
}

/** A TSDoc comment with the file and line it starts on. */
interface DocComment {
  readonly where: string;
  readonly text: string;
}

function docCommentsOf(file: string): DocComment[] {
  const source = readFileSync(path.join(repoRoot, file), 'utf8');
  return [...source.matchAll(/\/\*\*[\s\S]*?\*\//g)].map((match) => ({
    where: `${file}:${source.slice(0, match.index).split('\n').length}`,
    text: match[0],
  }));
}

const sourceDocs = filesUnder('src', /\.ts$/).flatMap(docCommentsOf);

/** A repository path a comment cites: `examples/...`, `src/...`, `test/...`, `bench/...`, `docs/...`. */
const repositoryPath = /(?<![\w./@~-])(?:examples|src|test|bench|docs)\/[\w./-]*[\w/]/g;

/** Every name the code declares or uses: the repository's code and its dependencies' typings. */
function knownNames(): Set<string> {
  const names = new Set<string>();
  const addWords = (text: string) => {
    for (const word of text.match(/[A-Za-z_$][\w$]*/g) ?? []) names.add(word);
  };
  for (const folder of ['src', 'test', 'bench', 'examples']) {
    for (const file of filesUnder(folder, /\.(ts|js|mjs)$/)) {
      // This file's own examples of bad citations must not count as names.
      if (path.join(repoRoot, file) === import.meta.filename) continue;
      const code = readFileSync(path.join(repoRoot, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      addWords(code);
    }
  }
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  // The drivers are optional peers: the code names their APIs as it names its dependencies'.
  for (const dependency of Object.keys({
    ...manifest.dependencies,
    ...manifest.peerDependencies,
  })) {
    const folder = path.join('node_modules', dependency);
    if (!existsSync(path.join(repoRoot, folder))) continue;
    for (const file of filesUnder(folder, /\.d\.(ts|mts|cts)$/)) {
      addWords(readFileSync(path.join(repoRoot, file), 'utf8'));
    }
  }
  return names;
}

/**
 * Names a doc comment cites: calls and constructions (`createThing(...)`, `new
 * Thing(...)`, not methods) and camelCase or PascalCase names in backticks.
 */
function citedNames(comment: string): string[] {
  const calls = [...comment.matchAll(/(?<![\w$.'"-])([a-z][a-z0-9]*[A-Z][\w$]*)\s*\(/g)];
  const constructions = [...comment.matchAll(/\bnew\s+([A-Z][\w$]*)/g)];
  const quoted = [
    ...comment.matchAll(/`([a-z][a-z0-9]*[A-Z][\w$]*|[A-Z][a-z0-9]+[A-Z][\w$]*)(?:\(\))?`/g),
  ];
  return [...new Set([...calls, ...constructions, ...quoted].map((match) => match[1] as string))];
}

describe('doc comments in src/', () => {
  it('finds the doc comments it checks', () => {
    expect(sourceDocs.length).toBeGreaterThan(500);
  });

  it('cite only repository paths that exist', () => {
    const missing = sourceDocs.flatMap(({ where, text }) =>
      (text.match(repositoryPath) ?? [])
        .filter((cited) => !existsSync(path.join(repoRoot, cited)))
        .map((cited) => `${where}: ${cited}`),
    );
    expect(missing).toEqual([]);
  });

  it('call and construct only names that exist in the code or its dependencies', () => {
    const names = knownNames();
    const unknown = sourceDocs.flatMap(({ where, text }) =>
      citedNames(text)
        .filter((name) => !names.has(name))
        .map((name) => `${where}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('recognises the citations it checks, and skips globs', () => {
    const comment =
      '/** See examples/runs/grid-meta.yaml, test/e2e/embed.test.ts. and `src/**`; `createControllerActors()`, new CrossEntropyBrain(init), obj.methodCall(), `withTerminationReasons` */';
    expect(comment.match(repositoryPath)).toEqual([
      'examples/runs/grid-meta.yaml',
      'test/e2e/embed.test.ts',
    ]);
    expect(citedNames(comment)).toEqual([
      'createControllerActors',
      'CrossEntropyBrain',
      'withTerminationReasons',
    ]);
  });
});
