import { ArenaError } from '../../domain/shared/errors.js';

/**
 * Server faults are neither verdicts nor bad input: a lost store connection,
 * a NATS disconnect, an ack or request timeout goes away when the server is
 * back, so work is retried with back-off for a bounded patience instead of
 * failing a run, a case or the process.
 */

/** PostgreSQL SQLSTATE classes and codes that mean the server went away or is not yet back. */
const PG_UNAVAILABLE = /^(08|53|57P0[1-4]|58)/;

/** System codes of a socket that could not connect or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTCONN',
]);

/** Error classes of the NATS clients (by name: the drivers are optional peers) that a reconnect ends. */
const NATS_UNAVAILABLE = new Set([
  'ConnectionError',
  'ClosedConnectionError',
  'DrainingConnectionError',
  'TimeoutError',
  'NoRespondersError',
  'RequestError',
  'JetStreamStatusError',
]);

/**
 * SQLite's "another connection holds the lock" codes (with their extended
 * forms: `SQLITE_BUSY_SNAPSHOT`, `SQLITE_BUSY_RECOVERY`, `SQLITE_LOCKED_SHAREDCACHE`):
 * contention past the busy timeout, or a lock the busy handler is not asked
 * about, ends when the other writer does; nothing is wrong with the work.
 */
const SQLITE_CONTENDED = /^SQLITE_(BUSY|LOCKED)(_[A-Z]+)?$/;

/** Arena's own codes for a server that went away. */
const ARENA_UNAVAILABLE = new Set(['STORE_CONNECTION', 'SERVER_UNAVAILABLE']);

/**
 * Whether `error` (or an error in its cause chain) is a server fault that
 * retrying after the server is back can cure, not something wrong with the
 * work itself.
 *
 * @example
 * ```ts
 * isServerFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })); // true
 * isServerFailure(Object.assign(new Error('terminating connection'), { code: '57P01' })); // true
 * isServerFailure(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })); // true
 * isServerFailure(new TypeError('x is undefined')); // false
 * ```
 */
export function isServerFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const { code, name } = current as { code?: unknown; name?: unknown };
    if (typeof code === 'string') {
      if (ArenaError.is(current) ? ARENA_UNAVAILABLE.has(code) : false) return true;
      if (SOCKET_CODES.has(code)) return true;
      if (!ArenaError.is(current) && SQLITE_CONTENDED.test(code)) return true;
      if (!ArenaError.is(current) && /^[0-9A-Z]{5}$/.test(code) && PG_UNAVAILABLE.test(code)) {
        return true;
      }
    }
    if (typeof name === 'string' && NATS_UNAVAILABLE.has(name)) return true;
    const message = (current as { message?: unknown }).message;
    if (
      typeof message === 'string' &&
      /Connection terminated|connection .*(closed|lost)/i.test(message)
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A server stayed away longer than the patience allowed: the work is not
 * lost (what was committed is kept; queued work is still queued), but this
 * process gives up on it. The CLI exits with its own code for this, not 2.
 *
 * @example
 * ```ts
 * // ServerUnavailableError: the store at postgres://127.0.0.1:5432/arena did not come back within 300 s
 * // (last: connect ECONNREFUSED 127.0.0.1:5432)
 * ```
 */
export class ServerUnavailableError extends ArenaError {
  constructor(what: string, patienceMs: number, options?: { cause?: unknown }) {
    const last = options?.cause instanceof Error ? ` (last: ${options.cause.message})` : '';
    super(
      'SERVER_UNAVAILABLE',
      `${what} did not come back within ${Math.round(patienceMs / 1000)} s${last}`,
      options,
    );
  }
}

/** How long a process waits for a server to come back by default: five minutes. */
export const defaultServerPatienceMs = 5 * 60_000;

/** How a retry waits: doubling from `firstDelayMs` up to `maxDelayMs`, for at most `patienceMs` in all. */
export interface PatienceOptions {
  /** What is waited for, as messages name it (`the store at postgres://…`). */
  readonly what: string;
  readonly patienceMs?: number;
  readonly firstDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Aborting it ends a wait at once with the signal's reason; an attempt is still made (once) after it. */
  readonly signal?: AbortSignal;
  /** Told before each wait (for a log line). */
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  /** Which errors are retried; default {@link isServerFailure}. */
  readonly retryable?: (error: unknown) => boolean;
  /** The clock, for tests. */
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Run `work` until it settles without a server fault: a server fault is
 * retried with doubling back-off until `patienceMs` has passed since the
 * first one, then it becomes a `ServerUnavailableError`; any other error is
 * thrown at once, unchanged.
 *
 * @example
 * ```ts
 * const run = await withPatience(() => store.getRun(runId), { what: 'the store' });
 * ```
 */
export async function withPatience<T>(
  work: () => T | Promise<T>,
  options: PatienceOptions,
): Promise<T> {
  const patienceMs = options.patienceMs ?? defaultServerPatienceMs;
  const retryable = options.retryable ?? isServerFailure;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  let delayMs = options.firstDelayMs ?? 100;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  let firstFailureAt: number | null = null;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      // an abort ends the waiting, not the attempt: a cancel still gets written after Ctrl-C
      if (!retryable(error) || options.signal?.aborted === true) throw error;
      firstFailureAt ??= now();
      const left = patienceMs - (now() - firstFailureAt);
      if (left <= 0) throw new ServerUnavailableError(options.what, patienceMs, { cause: error });
      const wait = Math.min(delayMs, maxDelayMs, left);
      options.onRetry?.(error, attempt, wait);
      await sleep(wait, options.signal);
      delayMs = Math.min(delayMs * 2, maxDelayMs);
    }
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
