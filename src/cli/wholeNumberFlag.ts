import { CliError } from './errors.js';

/**
 * The bounds of every whole-number option without bounds of its own: the
 * upper ones are far above any real use and far below what would exhaust a
 * machine (a million judgements in flight, not 1e15). Each option's help text
 * in docs/cli.md names its bounds.
 */
export const wholeNumberBounds = {
  /** runs, judgements or service instances one process keeps going at once */
  concurrency: { least: 1, most: 1024 },
  /** judgements one `arena judge` process keeps in flight */
  judgeConcurrency: { least: 1, most: 10_000 },
  /** messages a worker holds unacknowledged */
  inProgress: { least: 1, most: 1_000_000 },
  /** deliveries of one run before it is failed */
  deliveries: { least: 1, most: 1_000 },
  /** rows listed */
  listed: { least: 1, most: 1_000_000 },
  /** bootstrap resamples */
  resamples: { least: 1, most: 1_000_000 },
} as const;

/**
 * A whole-number option, or exit 2 naming the option and its bounds.
 *
 * @example
 * ```ts
 * wholeNumberFlag('--max-in-progress', '64', wholeNumberBounds.inProgress); // 64
 * wholeNumberFlag('--concurrency', '1e15', wholeNumberBounds.concurrency);
 * // CliError: --concurrency must be a whole number from 1 to 1024, got '1e15'
 * ```
 */
export function wholeNumberFlag(
  flag: string,
  text: string,
  bounds: { readonly least: number; readonly most: number },
): number {
  const value = Number(text);
  if (
    text.trim() === '' ||
    !Number.isSafeInteger(value) ||
    value < bounds.least ||
    value > bounds.most
  ) {
    throw new CliError(
      `${flag} must be a whole number from ${bounds.least} to ${bounds.most}, got '${text}'`,
    );
  }
  return value;
}
