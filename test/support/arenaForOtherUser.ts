import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { repoRoot, runProcess } from './cli.js';
import { fileScratchFolder } from './scratch.js';

/** A user the tests run `arena` as (spawn's `uid`/`gid`). */
export interface OtherUser {
  readonly uid: number;
  readonly gid: number;
}

/** The `arena.js` that user can run, or why there is none (a reason to skip with). */
export type OtherUserArena = { readonly bin: string } | { readonly unreachable: string };

const prepared = new Map<number, Promise<OtherUserArena>>();

/**
 * The built `arena` command copied where another user can run it: a checkout
 * in a private folder (a 0700 home, `mktemp -d`) cannot be entered by
 * `nobody`, so the bundle (`cli/`) and the packages it loads at run time go to
 * a temporary folder anyone may read. Made once per test file, removed after
 * it; `unreachable` when that user still cannot run it (e.g. `node` itself
 * lives in a private folder).
 *
 * @example
 * ```ts
 * const arena = await arenaForOtherUser({ uid: 65534, gid: 65534 });
 * if ('unreachable' in arena) context.skip(arena.unreachable);
 * else await runArena(['runs'], { bin: arena.bin, user: { uid: 65534, gid: 65534 } });
 * ```
 */
export function arenaForOtherUser(user: OtherUser): Promise<OtherUserArena> {
  let arena = prepared.get(user.uid);
  if (arena === undefined) {
    arena = copyArena(user);
    prepared.set(user.uid, arena);
  }
  return arena;
}

async function copyArena(user: OtherUser): Promise<OtherUserArena> {
  const folder = fileScratchFolder('arena-for-other-user-');
  // mkdtemp makes it 0700: the other user must enter it.
  chmodSync(folder, 0o755);
  for (const entry of ['package.json', 'bin', 'dist']) {
    linkTree(path.join(repoRoot, 'cli', entry), path.join(folder, 'cli', entry));
  }
  const modules = realpathSync(path.join(repoRoot, 'node_modules'));
  for (const name of runtimePackages(modules)) {
    linkTree(path.join(modules, name), path.join(folder, 'node_modules', name));
  }
  const bin = path.join(folder, 'cli', 'bin', 'arena.js');
  try {
    const probe = await runProcess(process.execPath, [bin, '--version'], { cwd: folder, user });
    if (probe.code === 0) return { bin };
    const why = probe.stderr.trim().split('\n')[0] ?? `exit ${probe.code}`;
    return { unreachable: `uid ${user.uid} cannot run ${bin}: ${why}` };
  } catch (error) {
    // spawn itself fails (EACCES) when the other user cannot reach node
    return {
      unreachable: `uid ${user.uid} cannot run ${process.execPath}: ${(error as Error).message}`,
    };
  }
}

/**
 * The installed packages `arena-cli` needs at run time: its dependencies and
 * theirs, by hoisted folder (a package's own nested `node_modules` comes with
 * it). Workspace links (arena-runtime, already in the bundle) are left out.
 */
function runtimePackages(modules: string): string[] {
  const found = new Set<string>();
  const pending = dependencyNames(path.join(repoRoot, 'cli', 'package.json'));
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const folder = path.join(modules, name);
    if (found.has(name) || !existsSync(folder) || lstatSync(folder).isSymbolicLink()) continue;
    found.add(name);
    pending.push(...dependencyNames(path.join(folder, 'package.json')));
  }
  return [...found].sort();
}

/**
 * Copy a file or folder as hard links (thousands of package files: a real copy took 17 s on a
 * busy machine), really copying a file the other user may not read (a checkout made under
 * umask 077) or where linking fails (another file system). Symlinks are followed: one kept
 * would point back into the private checkout.
 */
function linkTree(source: string, target: string): void {
  const stats = statSync(source);
  if (!stats.isDirectory()) {
    openFolder(path.dirname(target));
    linkOrCopy(realpathSync(source), target, stats.mode);
    return;
  }
  openFolder(target);
  for (const entry of readdirSync(source))
    linkTree(path.join(source, entry), path.join(target, entry));
}

/** Make a folder (and its missing parents) anyone may enter, whatever the umask. */
function openFolder(folder: string): void {
  const first = mkdirSync(folder, { recursive: true });
  if (first === undefined) return;
  for (let made = folder; ; made = path.dirname(made)) {
    chmodSync(made, 0o755);
    if (made === first) return;
  }
}

function linkOrCopy(source: string, target: string, mode: number): void {
  if (mode & 0o004) {
    try {
      linkSync(source, target);
      return;
    } catch {
      // another file system: copied below
    }
  }
  copyFileSync(source, target);
  // readable by all, and executable by all where its owner may execute it
  chmodSync(target, (mode & 0o777) | 0o444 | (mode & 0o100 ? 0o111 : 0));
}

function dependencyNames(packageJson: string): string[] {
  const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    dependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };
  return Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies });
}
