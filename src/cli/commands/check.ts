import type { Command } from 'commander';
import { arenaCommand } from '../../ports/runtime/arenaCommand.js';
import {
  checkSqliteStore,
  type StoreCheck,
  type StoreCheckOptions,
} from '../../ports/store/sqlite/sqliteCheck.js';
import { StoreNotFoundError } from '../../ports/store/storeErrors.js';
import { parseStoreUri, type StoreLocation } from '../../ports/store/storeUri.js';
import { counted } from '../counted.js';
import { ExitCode } from '../errors.js';
import { shownStorePath } from '../paths.js';

interface CheckCommandOptions {
  store?: string;
  json?: boolean;
  deep?: boolean;
}

/**
 * Register `arena check [store]`: SQLite's full integrity check of a store,
 * read-only, for damage the normal path never reads.
 *
 * @example
 * ```ts
 * registerCheckCommand(program);
 * // $ arena check sqlite:.arena/arena.db
 * // ok: /work/.arena/arena.db is a sound arena store (schema version 2, 3 runs)
 * ```
 */
export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description("check a store for damage: SQLite's integrity and foreign-key checks, read-only")
    .argument(
      '[store]',
      'the store, sqlite:PATH, postgres://USER@HOST:PORT/DB or a file path (default: --store, $ARENA_STORE, or sqlite:.arena/arena.db)',
    )
    .option(
      '--store <uri>',
      'the run store, sqlite:PATH or postgres://USER@HOST:PORT/DB (default: $ARENA_STORE, else sqlite:.arena/arena.db)',
    )
    .option(
      '--deep',
      "also verify each finished run's records (and each evaluation run's verdicts and cases' digests) against the digest taken when it finished; a change made outside arena exits 1, naming the run and the table",
    )
    .option('--json', 'print the findings as JSON')
    .action(async (store: string | undefined, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<CheckCommandOptions>();
      const uri =
        store === undefined
          ? options.store
          : store.startsWith('sqlite:') || /^postgres(ql)?:\/\//.test(store)
            ? store
            : `sqlite:${store}`;
      const check = await checkStore(parseStoreUri(uri), { deep: options.deep === true }).catch(
        (error: unknown) => {
          if (!(error instanceof StoreNotFoundError)) throw error;
          const hint = `arena check takes the store as its argument: ${arenaCommand('check sqlite:PATH')}`;
          throw new StoreNotFoundError(error.path, hint);
        },
      );
      const shown = shownStorePath(check.path);
      const changed = check.deep?.changed ?? [];
      if (options.json) process.stdout.write(`${JSON.stringify(check, null, 2)}\n`);
      else if (check.problems.length === 0 && changed.length > 0) {
        const lines = changed.map(
          (found) =>
            `  - ${found.kind} ${found.id}: ${found.tables.join(', ')} changed since it finished`,
        );
        process.stdout.write(
          `changed outside arena: ${shown} (${counted(changed.length, 'finished run')} of ${check.deep?.verified})\n${lines.join('\n')}\n`,
        );
      } else if (check.problems.length === 0) {
        const upgrade = check.upToDate
          ? ''
          : `; the next ${arenaCommand('run')} upgrades its schema`;
        const verified =
          check.deep === undefined
            ? ''
            : `; records of ${counted(check.deep.verified, 'finished run')} match their digests`;
        process.stdout.write(
          `ok: ${shown} is a sound arena store (schema version ${check.schemaVersion}, ${counted(check.runs, 'run')}${verified}${upgrade})\n`,
        );
      } else {
        const lines = check.problems.map((problem) => `  - ${problem}`);
        process.stdout.write(
          `damaged: ${shown} (${counted(check.problems.length, 'problem')})\n${lines.join('\n')}\n`,
        );
      }
      process.exitCode =
        check.problems.length > 0
          ? ExitCode.badInput
          : changed.length > 0
            ? ExitCode.failed
            : ExitCode.ok;
    });
}

/** SQLite's checks for a file; a PostgreSQL store's adapter is loaded only when one is named. */
async function checkStore(
  location: StoreLocation,
  options: StoreCheckOptions,
): Promise<StoreCheck> {
  if (location.kind === 'sqlite') return checkSqliteStore(location.path, options);
  const { checkPostgresStore } = await import('../../ports/store/postgres/postgresCheck.js');
  return checkPostgresStore(location.uri, options);
}
