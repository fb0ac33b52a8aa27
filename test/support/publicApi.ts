import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The names one entry point exports, values and types apart, each sorted. */
export interface EntryNames {
  readonly values: readonly string[];
  readonly types: readonly string[];
}

/** Where an exported name is declared, and the doc comment right above it (or null). */
export interface ExportDeclaration {
  readonly name: string;
  readonly kind: 'value' | 'type';
  readonly file: string;
  readonly doc: string | null;
  /** How it is declared: `function`, `class`, `const`, `interface`, `type`, `enum`... */
  readonly declaredAs: string;
}

/** One `export { a, type b as c } from './x.js'` clause, parsed. */
interface ReExport {
  readonly from: string | null;
  readonly typeOnly: boolean;
  readonly entries: readonly { local: string; exported: string; type: boolean }[];
}

// An export list, with or without a source module.
const exportList = /export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*'([^']+)')?/g;
// A whole module re-exported: `export * from './x.js'`, or `export type * from` for its types only.
const starExport = /export\s+(type\s+)?\*\s+from\s*'([^']+)'/g;
const declarationKeywords =
  '(?:declare\\s+)?(?:abstract\\s+)?(?:async\\s+)?(function\\*?|class|const|let|interface|type|enum)';
// A name a module declares and exports itself (`export interface X`, `export function f`...).
const declaredExport = new RegExp(`^export\\s+${declarationKeywords}\\s+([\\w$]+)`, 'gm');

function reExportsOf(text: string): ReExport[] {
  return [...text.matchAll(exportList)].map((match) => ({
    from: match[3] ?? null,
    typeOnly: match[1] !== undefined,
    entries: (match[2] ?? '')
      .split(',')
      .map((raw) => raw.replace(/\/\/.*$/gm, '').trim())
      .filter((raw) => raw !== '')
      .map((raw) => {
        const type = raw.startsWith('type ');
        const [local, exported] = raw.replace(/^type\s+/, '').split(/\s+as\s+/);
        return { local: local!.trim(), exported: (exported ?? local!).trim(), type };
      }),
  }));
}

/** The modules `file` re-exports whole, resolved to their sources. */
function starExportsOf(file: string, text: string): { file: string; typeOnly: boolean }[] {
  return [...text.matchAll(starExport)].map((match) => ({
    file: sourceOf(file, match[2]!),
    typeOnly: match[1] !== undefined,
  }));
}

/**
 * The names a module exports, values and types apart: its export lists, the
 * modules it re-exports whole (followed to their own exports), and the names
 * it declares `export function`, `export interface`... itself.
 */
function exportedNames(file: string, depth = 0): { values: Set<string>; types: Set<string> } {
  if (depth > 10) throw new Error(`${file}: modules re-exported in a cycle`);
  const text = readFileSync(file, 'utf8');
  const values = new Set<string>();
  const types = new Set<string>();
  for (const clause of reExportsOf(text)) {
    for (const entry of clause.entries) {
      (clause.typeOnly || entry.type ? types : values).add(entry.exported);
    }
  }
  for (const star of starExportsOf(file, text)) {
    const names = exportedNames(star.file, depth + 1);
    for (const name of names.types) types.add(name);
    for (const name of names.values) (star.typeOnly ? types : values).add(name);
  }
  for (const match of text.matchAll(declaredExport)) {
    (/^(interface|type)$/.test(match[1]!) ? types : values).add(match[2]!);
  }
  return { values, types };
}

/** The names a barrel file exports, through its lists and the modules it re-exports whole. */
export function barrelNames(file: string): EntryNames {
  const { values, types } = exportedNames(file);
  return { values: [...values].sort(), types: [...types].sort() };
}

function sourceOf(fromFile: string, specifier: string): string {
  return path.resolve(path.dirname(fromFile), specifier).replace(/\.js$/, '.ts');
}

/** The `/** ... *\/` block that ends right before `index` in `text`, or null. */
function docBefore(text: string, index: number): string | null {
  const before = text.slice(0, index).trimEnd();
  if (!before.endsWith('*/')) return null;
  const start = before.lastIndexOf('/**');
  if (start < 0) return null;
  return before.slice(start);
}

/**
 * Follow `name` from `file` to the declaration it names, through re-exports
 * and renames, and return the doc comment written there.
 */
export function findDeclaration(
  file: string,
  name: string,
  kind: 'value' | 'type',
  depth = 0,
): ExportDeclaration {
  if (depth > 10) throw new Error(`${name}: re-exported in a cycle (last at ${file})`);
  const text = readFileSync(file, 'utf8');
  const direct = new RegExp(
    `^export\\s+${declarationKeywords}\\s+${regexName(name)}(?![\\w$])`,
    'm',
  ).exec(text);
  if (direct) {
    return { name, kind, file, doc: docBefore(text, direct.index), declaredAs: direct[1]! };
  }
  for (const clause of reExportsOf(text)) {
    const entry = clause.entries.find((candidate) => candidate.exported === name);
    if (entry === undefined) continue;
    if (clause.from !== null) {
      return findDeclaration(sourceOf(file, clause.from), entry.local, kind, depth + 1);
    }
    const local = new RegExp(
      `^(?:export\\s+)?${declarationKeywords}\\s+${regexName(entry.local)}(?![\\w$])`,
      'm',
    ).exec(text);
    if (local) {
      return { name, kind, file, doc: docBefore(text, local.index), declaredAs: local[1]! };
    }
  }
  for (const star of starExportsOf(file, text)) {
    const names = exportedNames(star.file);
    if (names.values.has(name) || names.types.has(name)) {
      return findDeclaration(star.file, name, kind, depth + 1);
    }
  }
  const imported = new RegExp(
    `import\\s+(?:type\\s+)?\\{[^}]*\\b${regexName(name)}(?![\\w$])[^}]*\\}\\s*from\\s*'([^']+)'`,
  ).exec(text);
  if (imported?.[1]?.startsWith('.')) {
    return findDeclaration(sourceOf(file, imported[1]), name, kind, depth + 1);
  }
  throw new Error(`${name}: no declaration found from ${file}`);
}

function regexName(name: string): string {
  return name.replace(/\$/g, '\\$');
}
