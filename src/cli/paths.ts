import path from 'node:path';

/**
 * A store path as the summary shows it: relative to the working directory when
 * the store is inside it, so printed output names no machine-specific folder.
 *
 * @example
 * ```ts
 * shownStorePath(path.join(process.cwd(), '.arena/arena.db')); // '.arena/arena.db'
 * shownStorePath('/srv/runs/arena.db'); // '/srv/runs/arena.db' (outside the working directory)
 * ```
 */
export function shownStorePath(storePath: string): string {
  if (!path.isAbsolute(storePath)) return storePath;
  const relative = path.relative(process.cwd(), storePath);
  const inside = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  return inside ? relative : storePath;
}
