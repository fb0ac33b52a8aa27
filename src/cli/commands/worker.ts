import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { defaultMaxDeliveries } from '../../actors/experiment/queue/maxDeliveries.js';
import type { WorkerEvent } from '../../actors/experiment/queue/runWorker.js';
import type { JudgeWorkerEvent, JudgeWorkerTally } from '../../actors/judging/judgeWorker.js';
import { ArenaError } from '../../domain/shared/errors.js';
import type { JudgeQueue } from '../../ports/queue/judgeQueue.js';
import { ackWaitFor } from '../../ports/queue/queueUri.js';
import type { RemoteComponentHost } from '../../ports/remote/remoteComponent.js';
import { createLogger, type Logger, type LogLevel } from '../../ports/runtime/logger.js';
import { redactUrl } from '../../ports/runtime/redactUrl.js';
import { withPatience } from '../../ports/runtime/serverFailure.js';
import type { RunStore } from '../../ports/store/store.js';
import type { TableWrite } from '../../ports/store/storeErrors.js';
import { parseStoreUri, type StoreLocation } from '../../ports/store/storeLocation.js';
import {
  leaseTtlFromEnvironment,
  serverPatienceFromEnvironment,
} from '../environmentMilliseconds.js';
import { CliError, ExitCode } from '../errors.js';
import { wholeNumberBounds, wholeNumberFlag } from '../wholeNumberFlag.js';
import {
  type NatsCredentialFlags,
  type NatsTarget,
  natsTargetOf,
  withRemoteComponentOptions,
} from './natsTarget.js';
import { casesLines, runsLine } from './requeueLines.js';
import {
  judgeAckWaitFromEnvironment,
  openJudgeQueue,
  openRemoteComponents,
  openRunQueue,
} from './runQueueOpen.js';

interface WorkerCommandOptions extends NatsCredentialFlags {
  store?: string;
  concurrency: string;
  name?: string;
  maxInProgress?: string;
  maxDeliveries?: string;
  reconfigureFleet?: boolean;
  judgeConcurrency: string;
  judgeOnly?: boolean;
  modules: string[];
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
  const command = program
    .command('worker')
    .description(
      'take queued runs (arena submit) off the NATS run queue and run them; SIGTERM or Ctrl-C hands them back',
    );
  withRemoteComponentOptions(command, 'the NATS server with JetStream (default: ARENA_NATS)')
    .option(
      '--store <uri>',
      'the run store shared with arena submit (default: ARENA_STORE, else sqlite:.arena/arena.db)',
    )
    .option('--concurrency <n>', 'runs this worker works on at once, 1 to 1024', '1')
    .option('--name <name>', 'the worker name arena runs shows (default: host-pid)')
    .option(
      '--max-in-progress <n>',
      'the fleet-wide cap on runs in progress across all workers, 1 to 1000000: set when the run consumer is created, else refused when it differs unless --reconfigure-fleet (kept as set when omitted)',
    )
    .option(
      '--max-deliveries <n>',
      `fail a run that cannot run (a missing module, a run file that no longer loads) at its n-th delivery, 1 to 1000 (default: ARENA_MAX_DELIVERIES, else ${defaultMaxDeliveries})`,
    )
    .option(
      '--reconfigure-fleet',
      "set the shared consumers' ack waits (1.5 x ARENA_LEASE_TTL_MS for runs, ARENA_JUDGE_ACK_WAIT_MS for judge jobs) and --max-in-progress for every worker, when they differ (refused without it)",
    )
    .option(
      '--judge-concurrency <n>',
      'judgements this worker makes at once for arena judge --nats, 0 to 1024 (0: take no judge jobs)',
      String(defaultJudgeConcurrency),
    )
    .option(
      '--judge-only',
      'take only judge jobs: no run queue, no run store, nothing of running runs loaded (a cheaper worker for arena judge --nats)',
    )
    .option(
      '--modules <dir>',
      `also import run modules from under this folder (repeatable; default: ARENA_MODULES, folders separated by '${path.delimiter}'); the working folder always counts`,
      (dir: string, dirs: string[]) => [...dirs, dir],
      [] as string[],
    )
    .option('--json', 'one JSON line per run taken, ended, handed back or deferred, on stdout')
    .action(async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals<WorkerCommandOptions>();
      process.exitCode = await workerCommand(options);
    });
}

async function workerCommand(options: WorkerCommandOptions): Promise<number> {
  const nats = natsTargetOf(options);
  const location = parseStoreUri(options.store ?? process.env.ARENA_STORE);
  const concurrency = wholeNumberFlag(
    '--concurrency',
    options.concurrency,
    wholeNumberBounds.concurrency,
  );
  const maxInProgress =
    options.maxInProgress === undefined
      ? undefined
      : wholeNumberFlag('--max-in-progress', options.maxInProgress, wholeNumberBounds.inProgress);
  const maxDeliveries = maxDeliveriesOf(options.maxDeliveries);
  const name = options.name ?? `${hostname()}-${process.pid}`;
  const moduleRoots = moduleRootsOf(options.modules);
  const leaseTtlMs = leaseTtlFromEnvironment();
  const ackWaitMs = ackWaitFor(leaseTtlMs);
  const judgeConcurrency = wholeNumberFlag('--judge-concurrency', options.judgeConcurrency, {
    ...wholeNumberBounds.concurrency,
    least: 0,
  });
  const reconfigureFleet = options.reconfigureFleet === true;
  const logger = createLogger({ level: options.logLevel, json: options.json === true });
  if (options.judgeOnly === true)
    return judgeOnlyWorker({
      nats,
      location,
      name,
      moduleRoots,
      judgeConcurrency,
      reconfigureFleet,
      logger,
      json: options.json === true,
    });
  // the store first: a refused password or role ends the worker at once, before it holds a connection to NATS
  const { openStoreAsync } = await import('../../ports/store/storeUri.js');
  const store = await openStoreAsync(location, {
    requiredWrites: workerWrites(judgeConcurrency > 0),
  });
  try {
    return await workOn(store, {
      options,
      nats,
      location,
      name,
      concurrency,
      maxInProgress,
      maxDeliveries,
      moduleRoots,
      leaseTtlMs,
      ackWaitMs,
      judgeConcurrency,
      reconfigureFleet,
      logger,
    });
  } finally {
    store.close();
  }
}

/** A worker's settings, read from its options and environment before anything is opened. */
interface WorkerSettings {
  readonly options: WorkerCommandOptions;
  readonly nats: NatsTarget;
  readonly location: StoreLocation;
  readonly name: string;
  readonly concurrency: number;
  readonly maxInProgress: number | undefined;
  readonly maxDeliveries: number;
  readonly moduleRoots: readonly string[];
  readonly leaseTtlMs: number | undefined;
  readonly ackWaitMs: number;
  readonly judgeConcurrency: number;
  readonly reconfigureFleet: boolean;
  readonly logger: Logger;
}

/** Open the queues, put back what the store expects, and take runs and judge jobs until stopped. */
async function workOn(store: RunStore, settings: WorkerSettings): Promise<number> {
  const { options, nats, location, name, concurrency, maxInProgress, maxDeliveries } = settings;
  const { moduleRoots, leaseTtlMs, ackWaitMs, judgeConcurrency, reconfigureFleet, logger } =
    settings;
  // loaded only by a worker that takes runs: a judge-only one never compiles the experiment runner
  const [{ requeueRuns }, { runRunWorker }, { builtinComponents }] = await Promise.all([
    import('../../actors/experiment/queue/requeueRuns.js'),
    import('../../actors/experiment/queue/runWorker.js'),
    import('../../builtins/index.js'),
  ]);
  const queue = await openRunQueue(nats, {
    ackWaitMs,
    ...(maxInProgress !== undefined ? { maxInProgress } : {}),
    ...(reconfigureFleet ? { reconfigureFleet: true } : {}),
  });
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) return;
    say(
      `arena worker ${name}: stopping; handing runs back at their last barrier (Ctrl-C again to force)`,
    );
    stop.abort();
    process.once('SIGINT', () => process.exit(ExitCode.cancelled));
  };
  let judging: { done: Promise<JudgeWorkerTally> } | null = null;
  let remote: RemoteComponentHost | null = null;
  try {
    // both shared consumers are checked before any work: a worker at odds with the fleet stops at once
    const judgeAckWaitMs = judgeAckWaitFromEnvironment();
    const judgeQueue =
      judgeConcurrency > 0
        ? await openJudgeQueue(nats, {
            consume: {
              ackWaitMs: judgeAckWaitMs,
              ...(reconfigureFleet ? { reconfigureFleet } : {}),
            },
            logger,
          })
        : null;
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    say(
      `arena worker ${name}: taking runs from ${redactUrl(nats.url)}, ${concurrency} at a time${judgeConcurrency > 0 ? `, and judge jobs, ${judgeConcurrency} at a time` : ''}`,
    );
    // the store is the truth: what the queue lost (a server back without its folder) is put back first
    await requeueRuns(store, queue).then(
      (done) => say(`arena worker ${name}: ${runsLine(done)}`),
      async (error: unknown) => {
        // a role the bus refuses a requeue: no wait cures it (docs/nats/authorization.conf grants it)
        if (ArenaError.is(error, 'NATS_PERMISSION')) {
          await judgeQueue?.close();
          throw error;
        }
        say(`arena worker ${name}: could not put runs back: ${messageOf(error)}`);
      },
    );
    judging =
      judgeQueue !== null
        ? await startJudgeWorker({
            queue: judgeQueue,
            ackWaitMs: judgeAckWaitMs,
            location,
            name,
            concurrency: judgeConcurrency,
            signal: stop.signal,
            logger,
            json: options.json === true,
            moduleRoots,
          })
        : null;
    // the judge loop gave up (its store stayed away past the patience, or the bus refused its pulls):
    // the whole worker stops, and says why
    judging?.done.catch(() => stop.abort());
    // runs may name nats:<service> components: they are served through the worker's NATS server.
    // The queues reached it a moment ago, so a refusal now is an outage to wait out, not a bad URL.
    remote = await withPatience(() => openRemoteComponents(nats), {
      what: 'the NATS server',
      patienceMs: serverPatienceFromEnvironment(),
      signal: stop.signal,
      retryable: (error) => error instanceof CliError && error.exitCode === ExitCode.failed,
      onRetry: (error, attempt) =>
        logger.warn({ err: error, attempt }, 'the NATS server did not take a connection'),
    });
    const tally = await runRunWorker({
      store,
      queue,
      remoteComponents: remote,
      builtins: builtinComponents,
      moduleRoots,
      name,
      concurrency,
      maxDeliveries,
      ackWaitMs,
      ...(leaseTtlMs !== undefined ? { leaseTtlMs } : {}),
      serverPatienceMs: serverPatienceFromEnvironment(),
      signal: stop.signal,
      logger,
      onEvent: (event) => report(name, event, options.json === true),
    });
    const judged = await judging?.done;
    say(
      `arena worker ${name}: stopped (${tally.ended} ended, ${tally.handedBack} handed back, ${tally.deferred} deferred, ${tally.dropped} dropped${tally.failed > 0 ? `, ${tally.failed} failed (could not run)` : ''}${judged && Object.values(judged).some((count) => count > 0) ? `; judged ${judged.recorded}, from the cache ${judged.cached}, duplicates ${judged.duplicate}, handed back ${judged.handedBack}` : ''})`,
    );
    return ExitCode.ok;
  } finally {
    stop.abort();
    await judging?.done.catch(() => undefined);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await remote?.close();
    await queue.close();
  }
}

/**
 * Judgements a worker makes at once unless told: enough in flight to keep it
 * busy while the model answers (at 20 ms a call and ~1 ms of CPU a judgement,
 * 8 would leave it mostly idle).
 */
const defaultJudgeConcurrency = 32;

/** What a worker writes in the store (docs/postgres/grants.sql): a role without it is refused at the start. */
function workerWrites(judging: boolean): TableWrite[] {
  const runs: TableWrite[] = [
    { privilege: 'UPDATE', table: 'runs' },
    ...['phases', 'episodes', 'checkpoints', 'snapshots', 'resumes'].map((table) => ({
      privilege: 'INSERT' as const,
      table,
    })),
    // a resume truncates what came after its resume point
    { privilege: 'DELETE', table: 'episodes' },
  ];
  if (!judging) return runs;
  return [...runs, ...judgeWrites];
}

/** What judging writes in the store (docs/postgres/grants.sql). */
const judgeWrites: readonly TableWrite[] = [
  { privilege: 'UPDATE', table: 'evaluation_runs' },
  { privilege: 'INSERT', table: 'verdicts' },
];

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
    case 'held':
      say(
        `${name}: run ${event.runId} held at its sweep's rung (${event.checkpoints} evaluation checkpoints)`,
      );
      return;
    case 'deferred': {
      const bound = event.maxDeliveries === null ? '' : ` of at most ${event.maxDeliveries}`;
      say(
        `${name}: run ${event.runId} deferred (delivery ${event.deliveryCount}${bound}): ${event.reason}`,
      );
      return;
    }
    case 'failed':
      say(
        `${name}: run ${event.runId} failed after ${event.deliveries} ${event.deliveries === 1 ? 'delivery' : 'deliveries'}: ${event.reason}`,
      );
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

/** `arena worker --judge-only`: the judge queue and the judge store, nothing of runs. */
async function judgeOnlyWorker(settings: {
  readonly nats: NatsTarget;
  readonly location: StoreLocation;
  readonly name: string;
  readonly moduleRoots: readonly string[];
  readonly judgeConcurrency: number;
  readonly reconfigureFleet: boolean;
  readonly logger: Logger;
  readonly json: boolean;
}): Promise<number> {
  const { nats, name, judgeConcurrency, reconfigureFleet, logger } = settings;
  if (judgeConcurrency === 0) throw new CliError('--judge-only needs --judge-concurrency >= 1');
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) return;
    say(`arena worker ${name}: stopping; handing judge jobs back (Ctrl-C again to force)`);
    stop.abort();
    process.once('SIGINT', () => process.exit(ExitCode.cancelled));
  };
  const ackWaitMs = judgeAckWaitFromEnvironment();
  const queue = await openJudgeQueue(nats, {
    consume: { ackWaitMs, ...(reconfigureFleet ? { reconfigureFleet } : {}) },
    logger,
  });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // said once the store is open and the cases it expects are queued: the worker takes cases from now on
    const judging = await startJudgeWorker({
      queue,
      ackWaitMs,
      location: settings.location,
      name,
      concurrency: judgeConcurrency,
      signal: stop.signal,
      logger,
      json: settings.json,
      moduleRoots: settings.moduleRoots,
      requiredWrites: judgeWrites,
    });
    say(
      `arena worker ${name}: taking judge jobs from ${redactUrl(nats.url)}, ${judgeConcurrency} at a time`,
    );
    const judged = await judging.done;
    say(
      `arena worker ${name}: stopped (judged ${judged.recorded}, from the cache ${judged.cached}, duplicates ${judged.duplicate}, handed back ${judged.handedBack})`,
    );
    return ExitCode.ok;
  } finally {
    stop.abort();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

/** The worker's judge loop: its own judge store connection and judge queue, stopped by the same signal. */
async function startJudgeWorker(options: {
  queue: JudgeQueue;
  ackWaitMs: number;
  location: StoreLocation;
  name: string;
  concurrency: number;
  signal: AbortSignal;
  logger: Logger;
  json: boolean;
  moduleRoots: readonly string[];
  /** Checked when the store opens (a judge-only worker's only check of its role). */
  requiredWrites?: readonly TableWrite[];
}): Promise<{ done: Promise<JudgeWorkerTally> }> {
  const { queue, ackWaitMs } = options;
  const [{ runJudgeWorker }, { requeueCases }, { openJudgeStore }] = await Promise.all([
    import('../../actors/judging/judgeWorker.js'),
    import('../../actors/judging/requeueCases.js'),
    import('../../ports/store/judgeStoreUri.js'),
  ]);
  const store = await openJudgeStore(options.location, {
    ...(options.requiredWrites ? { requiredWrites: options.requiredWrites } : {}),
  }).catch(async (error: unknown) => {
    await queue.close();
    throw error;
  });
  await requeueCases(store, queue).then(
    (done) => {
      for (const line of casesLines(done)) say(`arena worker ${options.name}: ${line}`);
    },
    async (error: unknown) => {
      if (ArenaError.is(error, 'NATS_PERMISSION')) {
        await Promise.all([queue.close(), store.close()]);
        throw error;
      }
      say(`arena worker ${options.name}: could not put cases back: ${messageOf(error)}`);
    },
  );
  const run = async (): Promise<JudgeWorkerTally> => {
    try {
      return await runJudgeWorker({
        store,
        queue,
        concurrency: options.concurrency,
        ackWaitMs,
        name: options.name,
        moduleRoots: options.moduleRoots,
        signal: options.signal,
        logger: options.logger,
        onEvent: (event) => reportJudging(options.name, event, options.json),
        serverPatienceMs: serverPatienceFromEnvironment(),
      });
    } finally {
      await queue.close();
      await store.close();
    }
  };
  const done = run();
  // awaited by the worker when it stops; a failure meanwhile is not unhandled
  done.catch(() => undefined);
  return { done };
}

function reportJudging(name: string, event: JudgeWorkerEvent, json: boolean): void {
  // a message naming no stored case is told by the worker's logger
  if (event.type === 'judged' || event.type === 'dropped' || event.type === 'unknownCase') {
    if (json) process.stdout.write(`${JSON.stringify({ worker: name, ...event })}\n`);
    return;
  }
  const reason = event.error instanceof Error ? event.error.message : String(event.error);
  if (json) {
    process.stdout.write(`${JSON.stringify({ worker: name, type: event.type, error: reason })}\n`);
    return;
  }
  if (event.type === 'failed')
    say(`${name}: evaluation run ${event.evaluationRunId} failed: ${reason}`);
  else say(`${name}: the judge queue or store did not answer (${reason}); retrying`);
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

/**
 * The folders run modules may come from: the working folder, and each
 * `--modules DIR` (else each folder of `ARENA_MODULES`), which must be a folder.
 */
function moduleRootsOf(dirs: readonly string[]): string[] {
  const fromEnvironment = (process.env.ARENA_MODULES ?? '').split(path.delimiter);
  const [named, source] =
    dirs.length > 0 ? [dirs, '--modules'] : [fromEnvironment.filter(Boolean), 'ARENA_MODULES'];
  for (const dir of named) {
    let isFolder = false;
    try {
      isFolder = statSync(dir).isDirectory();
    } catch {
      // a folder that is not there is reported as not a folder
    }
    if (!isFolder) throw new CliError(`${source}: '${dir}' is not a folder`);
  }
  return [process.cwd(), ...named.map((dir) => path.resolve(dir))];
}

/** `--max-deliveries`, else `ARENA_MAX_DELIVERIES`, else the default; a whole number from 1 to 1000. */
function maxDeliveriesOf(option: string | undefined): number {
  if (option !== undefined) {
    return wholeNumberFlag('--max-deliveries', option, wholeNumberBounds.deliveries);
  }
  const text = process.env.ARENA_MAX_DELIVERIES;
  if (text === undefined || text === '') return defaultMaxDeliveries;
  return wholeNumberFlag('ARENA_MAX_DELIVERIES', text, wholeNumberBounds.deliveries);
}
