import { hashFiles } from '../../../config/moduleFingerprints.js';
import { ModuleNotAllowedError } from '../../../config/moduleRoots.js';
import { ArenaError } from '../../../domain/shared/errors.js';
import {
  LeaseLostError,
  RunLeasedError,
  RunNotFoundError,
} from '../../../ports/store/storeErrors.js';
import { ModulesChangedError } from '../moduleChanges.js';
import { RunInterruptedError } from '../runInterrupted.js';

/**
 * A user module a queued run names is not on this worker (it was when the
 * run was submitted): the run cannot start or go on here.
 *
 * @example
 * ```ts
 * // ModuleMissingError: run 'slow-line-20261201T090000-3fa2' cannot run on this worker: its module
 * // /experiments/components.js is not there (it was when the run was submitted)
 * error instanceof ModuleMissingError && error.code; // 'MODULE_MISSING'
 * ```
 */
export class ModuleMissingError extends ArenaError {
  readonly runId: string;
  /** Absolute paths of the module files that are gone (or unreadable). */
  readonly files: readonly string[];
  constructor(runId: string, files: readonly string[], options?: { cause?: unknown }) {
    super(
      'MODULE_MISSING',
      `run '${runId}' cannot run on this worker: its module${files.length > 1 ? 's' : ''} ${files.join(', ')} ${files.length > 1 ? 'are' : 'is'} not there (it was when the run was submitted)`,
      options,
    );
    this.runId = runId;
    this.files = files;
  }
}

/**
 * The run file stored with a run no longer loads: it does not validate
 * (another arena version) or does not match its recorded hash.
 *
 * @example
 * ```ts
 * // StoredRunFileError: the run file stored with run 'grid-…' no longer loads: run.yaml: schedule: …
 * error instanceof StoredRunFileError && error.code; // 'STORED_RUN_FILE'
 * ```
 */
export class StoredRunFileError extends ArenaError {
  readonly runId: string;
  constructor(runId: string, problem: string, options?: { cause?: unknown }) {
    super('STORED_RUN_FILE', `the run file stored with run '${runId}' ${problem}`, options);
    this.runId = runId;
  }
}

/**
 * Why a delivery could not be worked on. `transient`: it may go away by
 * itself (another process holds the run, a service is away, another worker
 * has the store or the files), so the run is always tried again. `permanent`:
 * it will not, so the run is failed after a bounded number of deliveries.
 * `refused`: the worker will not run it by its own rule (a module outside its
 * folders), so the run is failed at once.
 */
export interface DeliveryFailure {
  readonly kind: 'transient' | 'permanent' | 'refused';
  /** The root cause, as `Name: message`. */
  readonly reason: string;
}

/**
 * Tell a transient cause from a permanent one. Transient: `RunLeasedError`,
 * `LeaseLostError` (another process holds the run), `RunInterruptedError`
 * (a remote service is away), `RunNotFoundError` (the run is in another
 * worker's store). Refused: `ModuleNotAllowedError`. Anything else is permanent: a missing or changed module
 * (workers mostly share their files, so a changed one would come back
 * changed for ever; the message says how to resume it with `--force`), a
 * stored run file that no longer loads, an unexpected error.
 *
 * @example
 * ```ts
 * classifyDeliveryFailure(new RunNotFoundError('x'));
 * // { kind: 'transient', reason: "RunNotFoundError: no run 'x' in the store" }
 * classifyDeliveryFailure(new Error('disk on fire'));
 * // { kind: 'permanent', reason: 'Error: disk on fire' }
 * ```
 */
export function classifyDeliveryFailure(error: unknown): DeliveryFailure {
  const transient =
    error instanceof RunLeasedError ||
    error instanceof LeaseLostError ||
    error instanceof RunInterruptedError ||
    error instanceof RunNotFoundError;
  const kind = transient
    ? 'transient'
    : error instanceof ModuleNotAllowedError
      ? 'refused'
      : 'permanent';
  return { kind, reason: describeCause(error) };
}

/**
 * A `ModulesChangedError` whose files are gone from this worker becomes a
 * `ModuleMissingError` (a module not found, not a changed one); any other
 * error is returned as it is.
 *
 * @example
 * ```ts
 * await missingModulesOf(new ModulesChangedError(runId, ['/gone/env.js'])); // ModuleMissingError
 * ```
 */
export async function missingModulesOf(error: unknown): Promise<unknown> {
  if (!(error instanceof ModulesChangedError)) return error;
  const gone = (await hashFiles(error.files))
    .filter((file) => file.sha256 === null)
    .map((file) => file.file);
  return gone.length > 0 ? new ModuleMissingError(error.runId, gone, { cause: error }) : error;
}

/** `Name: message` of an error, as a failed run's error reads elsewhere. */
function describeCause(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
