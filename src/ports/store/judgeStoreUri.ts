import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { importWithPeers, optionalPeers } from '../runtime/optionalPeers.js';
import type { JudgeStore } from './judgeStore.js';
import { StoreNotFoundError, type TableWrite } from './storeErrors.js';
import type { StoreLocation } from './storeLocation.js';

/**
 * Open the judge store at a `--store` location: SQLite as `openStore` opens
 * the run store (for writing its folder and file are created if needed;
 * read-only never creates anything), PostgreSQL by loading its adapter (and
 * `pg`) only now, so a SQLite user never loads it.
 *
 * @example
 * ```ts
 * const store = await openJudgeStore(parseStoreUri(options.store));
 * const run = await store.getEvaluationRun('quality-20261201T110200-3fa2');
 * run.status; // 'running'
 * ```
 */
export async function openJudgeStore(
  location: StoreLocation,
  options: {
    readonly readonly?: boolean;
    /** The writes the command needs: a PostgreSQL role without them is refused at the open. */
    readonly requiredWrites?: readonly TableWrite[];
  } = {},
): Promise<JudgeStore> {
  if (location.kind === 'postgres') {
    const { openPostgresJudgeStore } = await importWithPeers(
      [optionalPeers.pg],
      'arena-runtime/postgres (PostgreSQL stores)',
      () => import('./postgres/postgresJudgeStore.js'),
    );
    return openPostgresJudgeStore(location.uri, options);
  }
  if (location.path !== ':memory:') {
    if (options.readonly === true) {
      if (!existsSync(location.path)) throw new StoreNotFoundError(location.path);
    } else mkdirSync(path.dirname(location.path), { recursive: true });
  }
  // loaded only now: a worker on a PostgreSQL store never compiles the SQLite adapter
  const { openSqliteJudgeStore } = await import('./sqlite/sqliteJudgeStore.js');
  // SQLite has no roles: a writable file is all it takes
  return openSqliteJudgeStore(location.path, { ...(options.readonly ? { readonly: true } : {}) });
}
