import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './cli.js';

/**
 * Every page of the manual, README.md first, then docs/**\/*.md, as one text:
 * what a test means by "the docs show it", wherever the page holds it.
 */
export function manualText(): string {
  const pages = readdirSync(path.join(repoRoot, 'docs'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  return [path.join(repoRoot, 'README.md'), ...pages]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}
