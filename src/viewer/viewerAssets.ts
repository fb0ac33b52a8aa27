import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ViewerServerError } from './viewerErrors.js';

/** The page's script and stylesheet, bundled by `npm run build` (scripts/bundle-viewer.mjs). */
export interface ViewerAssets {
  readonly script: string;
  readonly style: string;
}

let cached: ViewerAssets | undefined;

/**
 * The viewer page's bundled script and stylesheet, read once: beside this
 * module in `dist/viewer/page/`, or in the installed `arena-runtime`'s
 * (the `arena` command's bundle and the sources in tests find them there).
 *
 * @throws ViewerServerError when the page was not built.
 * @example
 * ```ts
 * viewerAssets().script.length > 0; // true after npm run build
 * ```
 */
export function viewerAssets(): ViewerAssets {
  if (cached !== undefined) return cached;
  const folder = candidateFolders().find((candidate) =>
    existsSync(path.join(candidate, 'viewer.js')),
  );
  if (folder === undefined) {
    throw new ViewerServerError(
      `the viewer page is not built (no viewer.js in ${candidateFolders().join(' or ')}): run npm run build`,
    );
  }
  cached = {
    script: readFileSync(path.join(folder, 'viewer.js'), 'utf8'),
    style: readFileSync(path.join(folder, 'viewer.css'), 'utf8'),
  };
  return cached;
}

function candidateFolders(): string[] {
  const folders = [fileURLToPath(new URL('./page/', import.meta.url))];
  try {
    const entry = createRequire(import.meta.url).resolve('arena-runtime');
    folders.push(path.join(path.dirname(entry), 'viewer', 'page'));
  } catch {
    // not installed as a package: only the folder beside this module
  }
  return folders;
}
