import { createInterface } from 'node:readline';
import { CliError } from './errors.js';

/** The longest a command keeps a page server up after its work: a day. */
export const MAX_WAIT_SECONDS = 86_400;

/**
 * A port flag (`--view-port`, `--inspect-port`): a whole number from 0 to
 * 65535 (0 picks a free one), `fallback` when not given, else a `CliError`
 * (exit 2) naming the flag.
 *
 * @example
 * ```ts
 * portFlag('--view-port', undefined, 0); // 0
 * portFlag('--view-port', '80x', 0); // CliError: --view-port must be a port number from 0 to 65535 (0 picks a free one), got "80x"
 * ```
 */
export function portFlag(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port > 65_535) {
    throw new CliError(
      `${flag} must be a port number from 0 to 65535 (0 picks a free one), got ${JSON.stringify(raw)}`,
    );
  }
  return port;
}

/**
 * A wait flag (`--view-wait`, `--inspect-wait`): `null` when not given, else
 * seconds from 0 to a day, or a `CliError` (exit 2) naming the flag.
 *
 * @example
 * ```ts
 * waitFlag('--view-wait', '2.5'); // 2.5
 * waitFlag('--view-wait', '-1'); // CliError: --view-wait must be a number of seconds from 0 to 86400, got "-1"
 * ```
 */
export function waitFlag(flag: string, raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const seconds = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_WAIT_SECONDS) {
    throw new CliError(
      `${flag} must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}, got ${JSON.stringify(raw)}`,
    );
  }
  return seconds;
}

/** Resolve when the user presses Enter (or stdin ends, or Ctrl-C): how a page server is kept up when no wait is given. */
export function waitForEnter(): Promise<void> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin, terminal: false });
    const done = () => {
      lines.close();
      process.stdin.pause();
      resolve();
    };
    lines.once('line', done);
    lines.once('close', done);
    lines.once('SIGINT', done);
  });
}
