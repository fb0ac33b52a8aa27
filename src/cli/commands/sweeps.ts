import type { Command } from 'commander';
import type { SweepRecord } from '../../ports/store/store.js';
import { sweepActivity } from '../../report/sweepActivity.js';
import { wholeNumberBounds, wholeNumberFlag } from '../wholeNumberFlag.js';
import { runStoreHelp, withRunStore } from './runStoreAccess.js';
import { storedSweepProgress } from './sweepTable.js';

/** One sweep as `arena sweeps` lists it. */
export interface SweepListing {
  readonly sweepId: string;
  readonly uid: string;
  /** The stored status, except that a `running` sweep nobody runs any more is `interrupted`. */
  readonly status: string;
  readonly trials: number;
  /** Trials by status: `completed`, `pruned`, `failed`, `running`. */
  readonly byStatus: Readonly<Record<string, number>>;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * Register `arena sweeps`: the sweeps of a store, newest first, each with its
 * status (an interrupted one said so) and its trials by status.
 *
 * @example
 * ```ts
 * registerSweepsCommand(program);
 * // $ arena sweeps
 * // SWEEP ID                             UID            STATUS       TRIALS                  CREATED
 * // plateau-sizes-20261202T113100-43f5   plateau-sizes  succeeded    8: 4 completed, 4 pruned  2026-12-02T11:31:00Z
 * ```
 */
export function registerSweepsCommand(program: Command): void {
  program
    .command('sweeps')
    .description('list the sweeps in the store, newest first')
    .option('--store <uri>', runStoreHelp)
    .option('--limit <count>', 'how many sweeps to list, 1 to 1000000', '50')
    .option('--json', 'print JSON instead of a table')
    .action(async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals<{ store?: string; limit: string; json?: boolean }>();
      const limit = wholeNumberFlag('--limit', options.limit, wholeNumberBounds.listed);
      await withRunStore(options.store, (store, location) => {
        const sweeps = store.listSweeps().slice(0, limit).map(listingOf);
        if (options.json === true) process.stdout.write(`${JSON.stringify(sweeps, null, 2)}\n`);
        else if (sweeps.length === 0) process.stdout.write(`no sweeps in ${location.path}\n`);
        else process.stdout.write(`${sweepsTable(sweeps)}\n`);
      });
    });
}

function listingOf(record: SweepRecord): SweepListing {
  const byStatus: Record<string, number> = {};
  let trials = 0;
  try {
    for (const trial of storedSweepProgress(record).trials) {
      const status =
        trial.status === 'held' || trial.status === 'pending' ? 'running' : trial.status;
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      trials++;
    }
  } catch {
    // a sweep whose state was never saved (created, then killed in the same moment) has no trials to count
  }
  return {
    sweepId: record.sweepId,
    uid: record.uid,
    status: sweepActivity(record).status,
    trials,
    byStatus,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

function sweepsTable(sweeps: readonly SweepListing[]): string {
  const header = ['SWEEP ID', 'UID', 'STATUS', 'TRIALS', 'CREATED'];
  const rows = sweeps.map((sweep) => [
    sweep.sweepId,
    sweep.uid,
    sweep.status,
    `${sweep.trials}: ${
      Object.entries(sweep.byStatus)
        .map(([status, count]) => `${count} ${status}`)
        .join(', ') || 'none'
    }`,
    sweep.createdAt.replace(/\.\d{3}Z$/, 'Z'),
  ]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  return [header, ...rows]
    .map((cells) =>
      cells
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
