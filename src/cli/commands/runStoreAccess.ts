import { arenaCommand } from '../../ports/runtime/arenaCommand.js';
import type { RunStore } from '../../ports/store/store.js';
import { RunNotFoundError } from '../../ports/store/storeErrors.js';
import { openStoreAsync, parseStoreUri, type StoreLocation } from '../../ports/store/storeUri.js';
import { CliError, ExitCode } from '../errors.js';
import { storeArgument } from '../storeArgument.js';

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
