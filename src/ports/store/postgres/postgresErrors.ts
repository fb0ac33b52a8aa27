import { ArenaError } from '../../../domain/shared/errors.js';
import type { PgFailure } from './syncConnection.js';

/**
 * The PostgreSQL server went away while a store was open (it was stopped,
 * restarted, or the network failed). What was committed before is kept: a
 * barrier's records land whole or not at all.
 *
 * @example
 * ```ts
 * store.getRun(runId); // after the server stopped
 * // StoreConnectionError: postgres://arena@127.0.0.1:5433/arena: lost the connection to 127.0.0.1:5433
 * // (57P01: terminating connection due to administrator command); what was committed is kept
 * ```
 */
export class StoreConnectionError extends ArenaError {
  constructor(display: string, server: string, failure: PgFailure, options?: { cause?: unknown }) {
    const code = failure.code === undefined ? '' : `${failure.code}: `;
    super(
      'STORE_CONNECTION',
      `${display}: lost the connection to ${server} (${code}${failure.message}); what was committed is kept`,
      options,
    );
  }
}
