import { randomBytes } from 'node:crypto';

/** Makes a run id from the run file's uid and the run's start time. */
export type RunIdGenerator = (uid: string, startedAt: Date) => string;

/**
 * A run id generator: `<uid>-<yyyymmddThhmmss>-<4 hex>` (UTC). The uid is kept
 * readable (characters other than letters, digits, `.`, `_` and `-` become
 * `-`, dashes at the ends dropped, at most 40 kept), the time sorts, and the random suffix tells apart two
 * runs started in the same second. The suffix is not part of any decision, so
 * it may come from the OS; tests inject `randomHex`.
 *
 * @example
 * ```ts
 * const newRunId = createRunIdGenerator({ randomHex: () => '3fa2' });
 * newRunId('grid demo', new Date('2026-11-29T20:07:02Z')); // 'grid-demo-20261129T200702-3fa2'
 * ```
 */
export function createRunIdGenerator(options: { randomHex?: () => string } = {}): RunIdGenerator {
  const randomHex = options.randomHex ?? (() => randomBytes(2).toString('hex'));
  return (uid, startedAt) => {
    const readableUid =
      uid
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 40) || 'run';
    const stamp = startedAt.toISOString().replace(/[-:]/g, '').slice(0, 15);
    return `${readableUid}-${stamp}-${randomHex()}`;
  };
}
