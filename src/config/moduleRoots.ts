import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { ArenaError } from '../domain/shared/errors.js';
import { arenaCommand } from '../ports/runtime/arenaCommand.js';

/**
 * A module a run (or a judge config) names lies outside the folders this
 * process may import code from, after its symlinks and `..` are resolved: it
 * is refused and never imported.
 *
 * @example
 * ```ts
 * // ModuleNotAllowedError: module /srv/runs/../outside.js (real path /srv/outside.js) is outside
 * // the folders this worker imports modules from: /srv/runs (widen with arena worker --modules DIR)
 * error instanceof ModuleNotAllowedError && error.code; // 'MODULE_NOT_ALLOWED'
 * ```
 */
export class ModuleNotAllowedError extends ArenaError {
  /** The module file as named (absolute, before symlinks are resolved). */
  readonly file: string;
  /** Where it really is. */
  readonly realFile: string;
  /** The folders modules may be imported from (real paths). */
  readonly roots: readonly string[];
  constructor(file: string, realFile: string, roots: readonly string[]) {
    const real = realFile === file ? '' : ` (real path ${realFile})`;
    super(
      'MODULE_NOT_ALLOWED',
      `module ${file}${real} is outside the folders this worker imports modules from: ${roots.join(', ')} (widen with ${arenaCommand('worker --modules DIR')})`,
    );
    this.file = file;
    this.realFile = realFile;
    this.roots = roots;
  }
}

/**
 * The real path of `file`; for a file that does not exist, the real path of
 * its nearest existing folder joined with the rest (it cannot be imported,
 * but a symlinked folder on its way still counts).
 *
 * @example
 * ```ts
 * await realPathOf('/srv/runs/link-to-tmp/env.js'); // '/tmp/env.js'
 * ```
 */
export async function realPathOf(file: string): Promise<string> {
  const absolute = path.resolve(file);
  try {
    return await realpath(absolute);
  } catch {
    const parent = path.dirname(absolute);
    if (parent === absolute) return absolute;
    return path.join(await realPathOf(parent), path.basename(absolute));
  }
}

/** Whether `file` (a real path) is `root` or under it (`root` a real path). */
function isUnder(file: string, root: string): boolean {
  const relative = path.relative(root, file);
  const outside = relative === '..' || relative.startsWith(`..${path.sep}`);
  return !outside && !path.isAbsolute(relative);
}

/**
 * Refuse the first of `files` that is not under one of `roots` once both
 * are resolved to real paths (symlinks and `..` followed). Nothing is
 * imported or read: only the paths are resolved.
 *
 * @throws {ModuleNotAllowedError} naming the module and the allowed folders.
 * @example
 * ```ts
 * await requireAllowedModules(['/srv/runs/env.js'], ['/srv/runs']); // resolves
 * await requireAllowedModules(['/srv/runs/../outside.js'], ['/srv/runs']); // throws ModuleNotAllowedError
 * ```
 */
export async function requireAllowedModules(
  files: readonly string[],
  roots: readonly string[],
): Promise<void> {
  const realRoots = await Promise.all(roots.map(realPathOf));
  for (const file of files) {
    const real = await realPathOf(file);
    if (!realRoots.some((root) => isUnder(real, root))) {
      throw new ModuleNotAllowedError(file, real, realRoots);
    }
  }
}
