import path from 'node:path';
import { arenaCommand } from '../ports/runtime/arenaCommand.js';
import { defaultStorePath, type StoreLocation } from '../ports/store/storeUri.js';
import { shownStorePath } from './paths.js';

/**
 * The `--store …` a printed command needs to reach the same store from the
 * working directory, or `''` for the default store (no `ARENA_STORE` set);
 * a PostgreSQL URI is printed without its password (`PGPASSWORD` or
 * `~/.pgpass` supply it), so no hint ever shows a secret.
 *
 * @example
 * ```ts
 * storeArgument(parseStoreUri('sqlite:runs.db')); // ' --store sqlite:runs.db'
 * storeArgument(parseStoreUri(undefined)); // '' (sqlite:.arena/arena.db, no ARENA_STORE)
 * storeArgument(parseStoreUri('postgres://arena:pw@db:5432/runs')); // " --store postgres://arena@db:5432/runs"
 * ```
 */
export function storeArgument(
  location: StoreLocation,
  cwd: string = process.cwd(),
  environment: NodeJS.ProcessEnv = process.env,
): string {
  if (location.kind === 'postgres') return ` --store ${shellWord(withoutPassword(location.uri))}`;
  const unset = (environment.ARENA_STORE ?? '').trim() === '';
  if (unset && location.path === path.resolve(cwd, defaultStorePath)) return '';
  return ` --store ${shellWord(`sqlite:${shownStorePath(location.path)}`)}`;
}

/**
 * The command that resumes a stored run, given its store's `storeArgument`.
 *
 * @example
 * ```ts
 * resumeCommand('grid-demo-20261129T200702-3fa2', ' --store sqlite:runs.db');
 * // 'arena run --resume grid-demo-20261129T200702-3fa2 --store sqlite:runs.db'
 * ```
 */
export function resumeCommand(runId: string, store: string): string {
  return arenaCommand(`run --resume ${shellWord(runId)}${store}`);
}

function withoutPassword(uri: string): string {
  const url = new URL(uri);
  url.password = '';
  for (const key of ['password', 'sslpassword']) url.searchParams.delete(key);
  return url.toString();
}

/** A word a POSIX shell reads back unchanged: quoted only when it needs to be. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
