import type { Command } from 'commander';
import { parseSweepFile } from '../../config/sweepFile.js';
import { arenaCommand } from '../../ports/runtime/arenaCommand.js';
import type { RunStore } from '../../ports/store/store.js';
import type { StoreLocation } from '../../ports/store/storeUri.js';
import { runDetails } from '../../report/runDetails.js';
import { runListings } from '../../report/runListings.js';
import { sweepActivity } from '../../report/sweepActivity.js';
import { shellWord, storeArgument } from '../storeArgument.js';
import { wholeNumberBounds, wholeNumberFlag } from '../wholeNumberFlag.js';
import { runStoreHelp, withRunStore } from './runStoreAccess.js';
import { formatRunDetails, formatRunTable } from './runsText.js';
import { isSweepOnly } from './sweepOnly.js';
import { storedSweepProgress, sweepTable, sweepTableText } from './sweepTable.js';

interface StoreCommandOptions {
  store?: string;
  json?: boolean;
  limit?: string;
  all?: boolean;
}

/**
 * Register `arena runs` (list the stored runs) and `arena show <run-id>`
 * (summarise one run).
 *
 * @example
 * ```ts
 * registerRunsCommands(program);
 * // $ arena runs --store sqlite:.arena/arena.db
 * // RUN ID                          UID        STATUS     STARTED               PHASES  EPISODES  TERMINATION
 * // grid-demo-20261129T200702-3fa2  grid-demo  succeeded  2026-11-29T20:07:02Z  1       4         success
 * ```
 */
export function registerRunsCommands(program: Command): void {
  program
    .command('runs')
    .description('list the runs in the store, newest first')
    .option('--store <uri>', runStoreHelp)
    .option('--limit <count>', 'how many runs to list, 1 to 1000000', '50')
    .option('--json', 'print JSON instead of a table')
    .action(async (_options: StoreCommandOptions, command: Command) => {
      const options = command.optsWithGlobals<StoreCommandOptions>();
      const limit = parseLimit(options.limit ?? '50');
      await withRunStore(options.store, (store, location) => {
        const runs = runListings(store, limit);
        if (options.json) printLine(JSON.stringify(runs, null, 2));
        else if (runs.length === 0) printLine(`no runs in ${location.path}`);
        else printLine(formatRunTable(runs));
      });
    });

  program
    .command('show')
    .description(
      'summarise one run (phases, episodes, checkpoints, meta decisions, snapshots) or one sweep (its leaderboard and decisions)',
    )
    .argument('<run-id>', 'the run to show, as `arena runs` lists it, or a sweep id')
    .option('--store <uri>', runStoreHelp)
    .option('--json', 'print JSON instead of text')
    .option('--all', 'print every checkpoint on a terminal too (piped output always has every one)')
    .action(async (runId: string, _options: StoreCommandOptions, command: Command) => {
      const options = command.optsWithGlobals<StoreCommandOptions>();
      await withRunStore(options.store, (store, location) => {
        if (isSweepOnly(store, runId)) {
          printLine(showSweep(store, runId, options.json === true, location));
          return;
        }
        const details = runDetails(store, runId);
        // A terminal gets the ends of a long list; a pipe (grep, a file) gets every line.
        const allCheckpoints = options.all === true || process.stdout.isTTY !== true;
        printLine(
          options.json
            ? JSON.stringify(details, null, 2)
            : formatRunDetails(details, { allCheckpoints, storeArgument: storeArgument(location) }),
        );
      });
    });
}

function parseLimit(text: string): number {
  return wholeNumberFlag('--limit', text, wholeNumberBounds.listed);
}

function printLine(text: string): void {
  process.stdout.write(`${text}\n`);
}

/**
 * A stored sweep's leaderboard (its state as of its last decision), as `arena
 * sweep` prints it; an interrupted one says why, and how to go on with it.
 */
function showSweep(
  store: RunStore,
  sweepId: string,
  json: boolean,
  location: StoreLocation,
): string {
  const record = store.getSweep(sweepId);
  const progress = storedSweepProgress(record);
  const activity = sweepActivity(record);
  const table = sweepTable(sweepId, activity.status, progress, store, activity.interruption);
  if (json) return JSON.stringify(table, null, 2);
  const spec = parseSweepFile(record.sweepFile, { path: record.sweepFilePath });
  const text = sweepTableText(
    table,
    spec.objectives.map((objective) => objective.metric),
    spec.parameters.map((parameter) => parameter.name),
  );
  if (activity.status !== 'interrupted') return text;
  return `${text}\n\ninterrupted: ${activity.interruption}; go on with: ${arenaCommand(`sweep --resume ${shellWord(sweepId)}${storeArgument(location)}`)}`;
}
