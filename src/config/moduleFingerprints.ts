import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../domain/shared/canonicalJson.js';
import { componentRefsOf, userModuleOf } from './components.js';
import type { RunSpec } from './runSpec.js';

/** A user module file and the sha256 (hex) of its bytes; `null` when the file is gone. */
export interface ModuleFileHash {
  readonly file: string;
  readonly sha256: string | null;
}

/**
 * The user module files a run spec names (`./my-env.js:MyEnvironment`), as
 * absolute paths, each once, sorted.
 *
 * @example
 * ```ts
 * userModuleFiles(spec); // ['/experiments/my-env.js']
 * ```
 */
export function userModuleFiles(spec: RunSpec): string[] {
  const files = new Set<string>();
  for (const ref of componentRefsOf(spec)) {
    const named = userModuleOf(ref.name);
    if (named !== null) files.add(path.resolve(spec.baseDir, named.modulePath));
  }
  return [...files].sort();
}

/**
 * Hash files' contents, so a resume can tell that a module it would load is
 * not the one the run started with.
 *
 * @example
 * ```ts
 * await hashFiles(['/experiments/my-env.js']);
 * // [{ file: '/experiments/my-env.js', sha256: '9f86d08…' }]
 * ```
 */
export async function hashFiles(files: readonly string[]): Promise<ModuleFileHash[]> {
  return Promise.all(
    files.map(async (file) => {
      try {
        return { file, sha256: sha256Hex(await readFile(file)) };
      } catch {
        return { file, sha256: null };
      }
    }),
  );
}
