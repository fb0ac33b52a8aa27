import type { Command } from 'commander';
import { runSweep, type SweepStart } from '../../actors/sweep/runSweep.js';
import { builtinComponents } from '../../builtins/index.js';
import { loadSweepFile, parseSweepFile, SweepFileError } from '../../config/sweepFile.js';
import { prepareSweepTrials } from '../../config/sweepTrials.js';
import { arenaCommand } from '../../ports/runtime/arenaCommand.js';
import { createLogger, type LogLevel } from '../../ports/runtime/logger.js';
import { SweepNotFoundError } from '../../ports/store/storeErrors.js';
import { openStoreAsync, parseStoreUri } from '../../ports/store/storeUri.js';
import {
  serverPatienceFromEnvironment,
  statusSafetyNetFromEnvironment,
} from '../environmentMilliseconds.js';
import { CliError, ExitCode } from '../errors.js';
import { onInterrupt } from '../interrupts.js';
import { shellWord, storeArgument } from '../storeArgument.js';
import { wholeNumberBounds, wholeNumberFlag } from '../wholeNumberFlag.js';
import { maxTrialsOf, withMaxTrials } from './maxTrials.js';
import { type NatsCredentialFlags, natsTargetOf, withNatsOptions } from './natsTarget.js';
import { openRunQueue } from './runQueueOpen.js';
import { objectiveNames, sweepTable, sweepTableText } from './sweepTable.js';
import {
  type CommandViewer,
  checkViewFlags,
  startCommandViewer,
  type ViewFlags,
  viewWanted,
  withViewOptions,
} from './viewOptions.js';

interface SweepCommandOptions extends NatsCredentialFlags, ViewFlags {
  store?: string;
  parallel?: string;
  resume?: string;
  json?: boolean;
  maxTrials?: string;
  logLevel: LogLevel;
}

/**
 * Register `arena sweep <sweep-file>`: run a sweep's trials, pruning the
 * losing ones at rungs of evaluation checkpoints, and print its leaderboard.
 *
 * @example
 * ```ts
 * registerSweepCommand(program);
 * // $ arena sweep examples/sweep.yaml --parallel 2
 * // sweep plateau-sizes-20261202T120000-3fa2: succeeded, 8 trials: 4 completed, 4 pruned; 271 episodes
 * ```
 */
export function registerSweepCommand(program: Command): void {
  const command = program
    .command('sweep')
    .description(
      'run the variants (trials) of a run file a sweep file names, stopping the losing ones at rungs of evaluation checkpoints',
    )
    .argument('[sweep-file]', 'the sweep file (omit with --resume: the stored one is used)')
    .option(
      '--store <uri>',
      'the run store, sqlite:PATH or postgres://USER@HOST:PORT/DB (default: $ARENA_STORE, else sqlite:.arena/arena.db)',
    )
    .option('--parallel <n>', 'trials run at once in this process, 1 to 1024 (default 1)');
  withNatsOptions(
    command,
    'run the trials on the fleet: queue them for arena worker on this NATS server (the store shared with the workers)',
  )
    .option(
      '--resume <sweep-id>',
      'go on with a stored sweep after a kill or Ctrl-C, to the same decisions',
    )
    .option('--json', 'the leaderboard as JSON on stdout');
  withViewOptions(command);
  withMaxTrials(command).action(
    async (sweepFile: string | undefined, _options: unknown, command: Command) => {
      process.exitCode = await sweepCommand(
        sweepFile,
        command.optsWithGlobals<SweepCommandOptions>(),
      );
    },
  );
}

async function sweepCommand(
  sweepFile: string | undefined,
  options: SweepCommandOptions,
): Promise<number> {
  checkViewFlags(options);
  const parallel = parallelOf(options.parallel);
  const maxTrials = maxTrialsOf(options.maxTrials);
  const nats = options.nats !== undefined ? natsTargetOf(options) : null;
  if (nats !== null && viewWanted(options)) {
    throw new CliError(
      '--view shows the trials this process runs; with --nats the workers run them: drop one',
    );
  }
  if (nats !== null && options.parallel !== undefined) {
    throw new CliError(
      '--parallel runs trials in this process; with --nats the workers run them: drop one',
    );
  }
  const location = parseStoreUri(options.store);
  const safetyNet = statusSafetyNetFromEnvironment();
  // a new sweep's file and every trial's run file are checked before the store is opened
  const fresh = options.resume === undefined ? await prepareNew(sweepFile, maxTrials) : null;
  const store = await openStoreAsync(location);
  const queue =
    nats === null
      ? null
      : await openRunQueue(nats).catch((error: unknown) => {
          store.close();
          throw error;
        });
  const logger = createLogger({ level: options.logLevel, json: options.json === true });
  const abort = new AbortController();
  const releaseInterrupt = onInterrupt(
    abort,
    'stopping the sweep: its trials go back to their last barrier (Ctrl-C again to force)',
  );
  let viewer: CommandViewer | null = null;
  try {
    viewer = await startCommandViewer(options, `arena sweep ${sweepFile ?? options.resume ?? ''}`);
    const start: SweepStart = fresh ?? (await prepareResume(options.resume as string, store));
    let announced = false;
    const outcome = await runSweep(start, {
      patienceMs: serverPatienceFromEnvironment(),
      store,
      builtins: builtinComponents,
      parallel,
      ...(queue !== null ? { queue, ...safetyNet } : {}),
      signal: abort.signal,
      logger,
      ...(viewer !== null ? { inspect: viewer.inspect } : {}),
      onEvent: (event) => {
        if (event.type === 'sweep.started' && !announced) {
          announced = true;
          process.stderr.write(
            `sweep ${event.sweepId}: ${event.resumed ? 'resuming' : 'starting'} ${event.trials} trials${queue !== null ? ', queued for the workers' : parallel > 1 ? `, ${parallel} at once` : ''}\n`,
          );
        } else if (event.type === 'rung.decided') {
          const { decision } = event;
          process.stderr.write(
            `  rung ${decision.rungIndex + 1} (${decision.rung} checkpoints): kept ${decision.kept.join(', ') || 'none'}; pruned ${decision.pruned.join(', ') || 'none'}\n`,
          );
        } else if (event.type === 'trial.ended') {
          process.stderr.write(`  trial ${event.index} ${event.status}\n`);
        }
      },
    });
    const shown = outcome.status === 'running' ? 'interrupted' : outcome.status;
    const table = sweepTable(
      outcome.sweepId,
      shown,
      outcome.progress,
      store,
      shown === 'interrupted' ? 'it was stopped' : null,
    );
    if (options.json === true) process.stdout.write(`${JSON.stringify(table, null, 2)}\n`);
    else {
      const names = objectiveNames(start.spec.objectives);
      process.stdout.write(
        `${sweepTableText(
          table,
          names,
          start.spec.parameters.map((parameter) => parameter.name),
        )}\n`,
      );
    }
    if (outcome.status === 'running') {
      process.stderr.write(
        `arena: sweep ${outcome.sweepId} stopped; go on with: ${arenaCommand(`sweep --resume ${shellWord(outcome.sweepId)}${storeArgument(location)}`)}\n`,
      );
      return ExitCode.cancelled;
    }
    process.stderr.write(
      `see it with: ${arenaCommand(`show ${shellWord(outcome.sweepId)}${storeArgument(location)}`)}\n`,
    );
    return outcome.status === 'succeeded' ? ExitCode.ok : ExitCode.failed;
  } catch (error) {
    if (error instanceof SweepNotFoundError) {
      throw new CliError(`no sweep '${error.sweepId}' in ${location.path}`);
    }
    if (error instanceof SweepFileError)
      throw new CliError(error.message, ExitCode.badInput, { cause: error });
    throw error;
  } finally {
    releaseInterrupt();
    await viewer?.finish();
    store.close();
    await queue?.close();
  }
}

function parallelOf(text: string | undefined): number {
  if (text === undefined) return 1;
  return wholeNumberFlag('--parallel', text, wholeNumberBounds.concurrency);
}

async function prepareNew(sweepFile: string | undefined, maxTrials: number): Promise<SweepStart> {
  if (sweepFile === undefined)
    throw new CliError('a sweep file is required (or --resume <sweep-id>)');
  try {
    const { spec, text } = loadSweepFile(sweepFile);
    const trials = await prepareSweepTrials(spec, sweepFile, {
      builtins: builtinComponents,
      maxTrials,
    });
    return { kind: 'new', spec, sweepFile: text, sweepFilePath: sweepFile, trials };
  } catch (error) {
    if (error instanceof SweepFileError)
      throw new CliError(error.message, ExitCode.badInput, { cause: error });
    throw error;
  }
}

async function prepareResume(
  sweepId: string,
  store: Awaited<ReturnType<typeof openStoreAsync>>,
): Promise<SweepStart> {
  const record = store.getSweep(sweepId);
  const spec = parseSweepFile(record.sweepFile, { path: record.sweepFilePath });
  // the trials run the run files stored with their runs: the same trials, whatever changed on disk since
  const prepared = await prepareSweepTrials(spec, record.sweepFilePath, {
    builtins: builtinComponents,
    // the stored sweep was accepted when it started: its count is not asked again
    maxTrials: Number.POSITIVE_INFINITY,
  });
  const stored = store.sweepTrials(sweepId);
  for (const trial of stored) {
    const run = store.getRun(trial.runId);
    if (prepared[trial.trialIndex]?.text !== run.runFile) {
      throw new CliError(
        `trial ${trial.trialIndex} of sweep '${sweepId}': its run file is no longer what the sweep file makes from ${spec.runFile}; resume needs the base run file unchanged`,
      );
    }
  }
  return { kind: 'resume', sweepId, spec, trials: prepared };
}
