import type { Command } from 'commander';
import { arenaCommand } from '../../ports/runtime/arenaCommand.js';
import type { RunStore } from '../../ports/store/store.js';
import { RunNotFoundError } from '../../ports/store/storeErrors.js';
import { openStoreAsync, parseStoreUri, type StoreLocation } from '../../ports/store/storeUri.js';
import { CliError, ExitCode } from '../errors.js';
import { storeArgument } from '../storeArgument.js';
import { wholeNumberBounds, wholeNumberFlag } from '../wholeNumberFlag.js';

/** The help of `--store` for the commands that read stored runs. */
export const runStoreHelp =
  'the run store, sqlite:PATH or postgres://USER@HOST:PORT/DB (default: $ARENA_STORE, else sqlite:.arena/arena.db)';

/**
 * Open the run store read-only, give it to `work`, close it; an unknown run
 * id becomes one line and exit 2.
 *
 * @example
 * ```ts
 * const details = await withRunStore(options.store, (store) => runDetails(store, runId));
 * ```
 */
export async function withRunStore<T>(
  uri: string | undefined,
  work: (store: RunStore, location: StoreLocation) => T,
): Promise<T> {
  const location = parseStoreUri(uri);
  const store = await openStoreAsync(location, { readonly: true });
  try {
    return work(store, location);
  } catch (error) {
    if (error instanceof RunNotFoundError) {
      throw new CliError(
        `no run '${error.runId}' in ${location.path} (${arenaCommand(`runs${storeArgument(location)}`)} lists the runs)`,
        ExitCode.badInput,
        { cause: error },
      );
    }
    throw error;
  } finally {
    store.close();
  }
}

/**
 * Register a listing of the store (`arena runs`, `arena sweeps`): `--store`,
 * `--limit` (a positive integer, default 50) and `--json`; `print` writes the
 * store's newest `limit` as JSON or as a table, `no <what> in <path>` when
 * there are none.
 *
 * @example
 * ```ts
 * registerStoreListing(program, 'sweeps', (store, limit) => store.listSweeps().slice(0, limit), sweepsTable);
 * ```
 */
export function registerStoreListing<T>(
  program: Command,
  what: string,
  list: (store: RunStore, limit: number) => readonly T[],
  table: (listed: readonly T[]) => string,
): void {
  program
    .command(what)
    .description(`list the ${what} in the store, newest first`)
    .option('--store <uri>', runStoreHelp)
    .option(
      '--limit <count>',
      `how many ${what} to list, 1 to ${wholeNumberBounds.listed.most}`,
      '50',
    )
    .option('--json', 'print JSON instead of a table')
    .action(async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals<{ store?: string; limit: string; json?: boolean }>();
      const limit = wholeNumberFlag('--limit', options.limit, wholeNumberBounds.listed);
      await withRunStore(options.store, (store, location) => {
        const listed = list(store, limit);
        if (options.json === true) process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
        else if (listed.length === 0) process.stdout.write(`no ${what} in ${location.path}\n`);
        else process.stdout.write(`${table(listed)}\n`);
      });
    });
}
