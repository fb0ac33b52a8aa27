import { hostname } from 'node:os';
import type { Command } from 'commander';
import { runRunWorker, type WorkerEvent } from '../../actors/queue/runWorker.js';
import { builtinComponents } from '../../builtins/index.js';
import { createLogger, type LogLevel } from '../../ports/logger.js';
import type { RemoteComponentHost } from '../../ports/remoteComponent.js';
import { openStoreAsync, parseStoreUri } from '../../ports/storeUri.js';
import { CliError, ExitCode } from '../errors.js';
import { leaseTtlFromEnvironment } from './run.js';
import { ackWaitFor, natsUrlOf, openRemoteComponents, openRunQueue } from './runQueueOpen.js';

interface WorkerCommandOptions {
  nats?: string;
  store?: string;
  concurrency: string;
  name?: string;
  maxInProgress?: string;
  json?: boolean;
  logLevel: LogLevel;
}

/**
 * Register `arena worker`: take runs off the NATS JetStream run queue and run
 * them, until SIGTERM or Ctrl-C hands the running ones back.
 *
 * @example
 * ```ts
 * registerWorkerCommand(program);
 * // $ arena worker --nats nats://127.0.0.1:4222 --store sqlite:runs.db --name w1
 * // arena worker w1: taking runs from nats://127.0.0.1:4222, 1 at a time
 * ```
 */
export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description(
      'take queued runs (arena submit) off the NATS run queue and run them; SIGTERM or Ctrl-C hands them back',
    )
    .option('--nats <url>', 'the NATS server with JetStream (default: ARENA_NATS)')
    .option(
      '--store <uri>',
      'the run store shared with arena submit (default: ARENA_STORE, else sqlite:.arena/arena.db)',
    )
    .option('--concurrency <n>', 'runs this worker works on at once', '1')
    .option('--name <name>', 'the worker name arena runs shows (default: host-pid)')
    .option(
      '--max-in-progress <n>',
      'set the fleet-wide cap on runs in progress across all workers (kept as set when omitted)',
    )
    .option('--json', 'one JSON line per run taken, ended, handed back or deferred, on stdout')
    .action(async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals<WorkerCommandOptions>();
      process.exitCode = await workerCommand(options);
    });
}

async function workerCommand(options: WorkerCommandOptions): Promise<number> {
  const url = natsUrlOf(options.nats);
  const location = parseStoreUri(options.store ?? process.env.ARENA_STORE);
  const concurrency = positiveInteger('--concurrency', options.concurrency);
  const maxInProgress =
    options.maxInProgress === undefined
      ? undefined
      : positiveInteger('--max-in-progress', options.maxInProgress);
  const name = options.name ?? `${hostname()}-${process.pid}`;
  const leaseTtlMs = leaseTtlFromEnvironment();
  const ackWaitMs = ackWaitFor(leaseTtlMs);
  const queue = await openRunQueue(url, {
    ackWaitMs,
    ...(maxInProgress !== undefined ? { maxInProgress } : {}),
  });
  const store = await openStoreAsync(location);
  const logger = createLogger({ level: options.logLevel, json: options.json === true });
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) return;
    say(
      `arena worker ${name}: stopping; handing runs back at their last barrier (Ctrl-C again to force)`,
    );
    stop.abort();
    process.once('SIGINT', () => process.exit(ExitCode.cancelled));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  say(`arena worker ${name}: taking runs from ${url}, ${concurrency} at a time`);
  let remote: RemoteComponentHost | null = null;
  try {
    // runs may name nats:<service> components: they are served through the worker's NATS server
    remote = await openRemoteComponents(url);
    const tally = await runRunWorker({
      store,
      queue,
      remoteComponents: remote,
      builtins: builtinComponents,
      name,
      concurrency,
      ackWaitMs,
      ...(leaseTtlMs !== undefined ? { leaseTtlMs } : {}),
      signal: stop.signal,
      logger,
      onEvent: (event) => report(name, event, options.json === true),
    });
    say(
      `arena worker ${name}: stopped (${tally.ended} ended, ${tally.handedBack} handed back, ${tally.deferred} deferred, ${tally.dropped} dropped)`,
    );
    return ExitCode.ok;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await remote?.close();
    await queue.close();
    store.close();
  }
}

function report(name: string, event: WorkerEvent, json: boolean): void {
  if (json) {
    const { error: _error, ...rest } = event as WorkerEvent & { error?: unknown };
    const line =
      event.type === 'ended'
        ? { worker: name, type: event.type, runId: event.runId, status: event.summary.status }
        : { worker: name, ...rest };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    return;
  }
  switch (event.type) {
    case 'taken':
      say(`${name}: run ${event.runId} taken (delivery ${event.deliveryCount})`);
      return;
    case 'ended':
      say(`${name}: run ${event.runId} ${event.summary.status}`);
      return;
    case 'handedBack':
      say(`${name}: run ${event.runId} handed back at its last barrier`);
      return;
    case 'deferred':
      say(`${name}: run ${event.runId} deferred: ${event.reason}`);
      return;
    case 'dropped':
      say(`${name}: run ${event.runId} already ${event.status}; message dropped`);
      return;
    case 'queueError':
      say(
        `${name}: the run queue did not answer (${event.error instanceof Error ? event.error.message : String(event.error)}); retrying`,
      );
      return;
  }
}

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

function positiveInteger(option: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new CliError(`${option} must be a whole number >= 1, got '${text}'`);
  }
  return value;
}
