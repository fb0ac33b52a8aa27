import { ExitCode } from './errors.js';

/**
 * Ctrl-C or SIGTERM aborts `abort` once, saying `message` on stderr; a
 * second Ctrl-C exits at once with 130. Returns what removes the handlers
 * (call it in a `finally`).
 *
 * @example
 * ```ts
 * const abort = new AbortController();
 * const release = onInterrupt(abort, 'cancelling (Ctrl-C again to force)');
 * try { await work(abort.signal); } finally { release(); }
 * ```
 */
export function onInterrupt(abort: AbortController, message: string): () => void {
  const onSignal = () => {
    if (abort.signal.aborted) return;
    process.stderr.write(`\narena: ${message}\n`);
    abort.abort();
    process.once('SIGINT', () => process.exit(ExitCode.cancelled));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  };
}
