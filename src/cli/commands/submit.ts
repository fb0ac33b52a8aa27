import type { Command } from 'commander';
import { followRun, type RunProgressView } from '../../actors/experiment/queue/followRun.js';
import { submitRun } from '../../actors/experiment/queue/submitRun.js';
import type { RunSummary } from '../../actors/experiment/runSummary.js';
import type { RunSpec } from '../../config/runSpec.js';
import type { RunQueue } from '../../ports/queue/runQueue.js';
import { arenaCommand } from '../../ports/runtime/arenaCommand.js';
import type { RunStore } from '../../ports/store/store.js';
import { openStoreAsync, parseStoreUri, type StoreLocation } from '../../ports/store/storeUri.js';
import {
  serverPatienceFromEnvironment,
  statusSafetyNetFromEnvironment,
} from '../environmentMilliseconds.js';
import { CliError, ExitCode } from '../errors.js';
import { createProgressBar, type ProgressBar } from '../progress.js';
import { shellWord, storeArgument } from '../storeArgument.js';
import { type NatsCredentialFlags, natsTargetOf, withNatsOptions } from './natsTarget.js';
import { exitCodeOf, loadRunFileForRun } from './run.js';
import { openRunQueue } from './runQueueOpen.js';
import { closingSummaryText } from './runSummaryText.js';

interface SubmitCommandOptions extends NatsCredentialFlags {
  store?: string;
  wait?: boolean;
  all?: boolean;
  json?: boolean;
}

/**
 * Register `arena submit <run-file>`: validate a run file, record the run as
 * `queued` and put it on the NATS JetStream run queue for `arena worker`.
 *
 * @example
 * ```ts
 * registerSubmitCommand(program);
 * // $ arena submit examples/hosting-capacity.yaml --nats nats://127.0.0.1:4222 --store sqlite:runs.db
 * // hosting-capacity-20261201T091500-3fa2
 * ```
 */
export function registerSubmitCommand(program: Command): void {
  const command = program
    .command('submit')
    .description(
      'queue a run for arena worker: validate the run file, record it as queued, print its id',
    )
    .argument('<run-file>', 'the run file');
  withNatsOptions(command, 'the NATS server with JetStream (default: ARENA_NATS)')
    .option(
      '--store <uri>',
      'the run store the workers share (default: ARENA_STORE, else sqlite:.arena/arena.db)',
    )
    .option(
      '--wait',
      'follow the run until it ends; the closing summary and exit code of arena run (Ctrl-C stops waiting, not the run)',
    )
    .option('--all', 'with --wait: every checkpoint in the closing summary')
    .option('--json', 'the run id (or with --wait the closing summary) as JSON on stdout')
    .action(async (runFile: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<SubmitCommandOptions>();
      process.exitCode = await submitCommand(runFile, options);
    });
}

async function submitCommand(runFile: string, options: SubmitCommandOptions): Promise<number> {
  const nats = natsTargetOf(options);
  const location = parseStoreUri(options.store ?? process.env.ARENA_STORE);
  // a bad interval is refused before anything is queued
  const safetyNet = statusSafetyNetFromEnvironment();
  // checked before the queue or the store is touched: a bad file leaves nothing behind
  const { spec, text } = await loadRunFileForRun(runFile);
  const queue = await openRunQueue(nats);
  let store: RunStore | null = null;
  try {
    store = await openStoreAsync(location);
    const { runId } = await submitRun(spec, { store, queue, runFileText: text });
    if (options.wait !== true) {
      process.stdout.write(
        options.json === true ? `${JSON.stringify({ runId, status: 'queued' })}\n` : `${runId}\n`,
      );
      return ExitCode.ok;
    }
    process.stderr.write(
      `arena: queued run ${runId}; waiting for a worker (Ctrl-C stops waiting)\n`,
    );
    return await waitForRun(store, queue, runId, spec, location, { ...options, ...safetyNet });
  } finally {
    await queue.close();
    store?.close();
  }
}

async function waitForRun(
  store: RunStore,
  queue: RunQueue,
  runId: string,
  spec: RunSpec,
  location: StoreLocation,
  options: SubmitCommandOptions & { readonly pollMs?: number },
): Promise<number> {
  const stopWaiting = new AbortController();
  const onSignal = () => stopWaiting.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const progress = new StoredRunProgress(spec);
  try {
    // the workers' hints on the run queue's connection make it look now; the store says what happened
    const ended = await followRun(store, runId, {
      queue,
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
      signal: stopWaiting.signal,
      serverPatienceMs: serverPatienceFromEnvironment(),
      onProgress: (view) => progress.show(view),
    });
    progress.finish();
    if (ended === null) {
      process.stderr.write(
        `\narena: stopped waiting; run ${runId} goes on in the workers (${arenaCommand(`show ${shellWord(runId)}${storeArgument(location)}`)})\n`,
      );
      return ExitCode.cancelled;
    }
    if (ended.summary === null) {
      throw new CliError(
        `run ${runId} ${ended.status}: ${ended.error ?? 'no summary'}`,
        ExitCode.failed,
      );
    }
    const summary = ended.summary as unknown as RunSummary;
    if (options.json === true) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else {
      process.stdout.write(`${closingSummaryText(summary, location, options.all === true)}
`);
    }
    return exitCodeOf(summary);
  } finally {
    progress.finish();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

/** The progress bar of a run followed in the store: its phase, training episodes, and who runs it. */
class StoredRunProgress {
  private bar: ProgressBar | null = null;
  private phaseIndex = -1;

  constructor(private readonly spec: RunSpec) {}

  show({ run, phases, episodes }: RunProgressView): void {
    const phase = phases.at(-1);
    if (phase === undefined) return;
    if (phase.phaseIndex !== this.phaseIndex) {
      this.bar?.finish();
      this.phaseIndex = phase.phaseIndex;
      this.bar = createProgressBar({
        total: this.spec.phases[phase.phaseIndex]?.phaseConfig.episodes ?? 0,
        label: `${phase.name} (${phase.mode})`,
        stream: process.stderr,
      });
    }
    const done =
      episodes.find((each) => each.phaseIndex === phase.phaseIndex && !each.evaluation)?.count ?? 0;
    const worker = run.lease?.owner.worker;
    this.bar?.update(done, worker === undefined ? run.status : `${run.status} on ${worker}`);
  }

  finish(): void {
    this.bar?.finish();
    this.bar = null;
  }
}
