import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { RunEvent } from '../../actors/experiment/runEvents.js';
import { runExperiment } from '../../actors/experiment/runExperiment.js';
import { RunInterruptedError } from '../../actors/experiment/runInterrupted.js';
import type { RunSummary } from '../../actors/experiment/runSummary.js';
import { builtinComponents } from '../../builtins/index.js';
import { parseRunFile, readRunFileText } from '../../config/runFile.js';
import { RunFileError } from '../../config/runFileError.js';
import { validateRunFileText } from '../../config/runFileValidation.js';
import type { RunSpec } from '../../config/runSpec.js';
import { sha256Hex } from '../../domain/shared/canonicalJson.js';
import type { RemoteComponentHost } from '../../ports/remote/remoteComponent.js';
import { arenaCommand } from '../../ports/runtime/arenaCommand.js';
import { createLogger, type LogLevel } from '../../ports/runtime/logger.js';
import type { RunStore } from '../../ports/store/store.js';
import {
  LeaseLostError,
  RunNotFoundError,
  StoreNotFoundError,
} from '../../ports/store/storeErrors.js';
import { openStoreAsync, parseStoreUri, type StoreLocation } from '../../ports/store/storeUri.js';
import {
  leaseTtlFromEnvironment,
  millisecondsFromEnvironment,
} from '../environmentMilliseconds.js';
import { CliError, ExitCode } from '../errors.js';
import { onInterrupt } from '../interrupts.js';
import { createProgressBar, type ProgressBar } from '../progress.js';
import { resumeCommand, storeArgument } from '../storeArgument.js';
import {
  type NatsCredentialFlags,
  remoteComponentsTargetOf,
  withRemoteComponentOptions,
} from './natsTarget.js';
import { type RunInspection, startRunInspection } from './runInspection.js';
import { openRemoteComponents } from './runQueueOpen.js';
import { closingSummaryText } from './runSummaryText.js';
import { checkViewFlags, type ViewFlags, withViewOptions } from './viewOptions.js';

interface RunCommandOptions extends NatsCredentialFlags, ViewFlags {
  store?: string;
  resume?: string;
  force?: boolean;
  all?: boolean;
  json?: boolean;
  inspect?: boolean;
  inspectPort?: string;
  inspectWait?: string;
  trace?: string;
  logLevel: LogLevel;
}

/**
 * Register `arena run <run-file>`: run an experiment's schedule and record it.
 *
 * @example
 * ```ts
 * registerRunCommand(program);
 * // $ arena run examples/hosting-capacity.yaml
 * // run hosting-capacity-20261129T201500-3fa2: succeeded (seed 42)
 * // ...
 * ```
 */
export function registerRunCommand(program: Command): void {
  const command = program
    .command('run')
    .description("run an experiment's schedule from a YAML run file and record it in the store")
    .argument('[run-file]', 'the run file (omit with --resume: the stored run file is used)')
    .option(
      '--store <uri>',
      'the run store, sqlite:PATH or postgres://USER@HOST:PORT/DB (default: $ARENA_STORE, else sqlite:.arena/arena.db)',
    );
  withViewOptions(command);
  withRemoteComponentOptions(
    command,
    'the NATS server of the nats:<service> components the run file names (default: ARENA_NATS)',
  )
    .option('--resume <run-id>', 'continue a stored run from its last episode barrier')
    .option(
      '--force',
      'with --resume: go on although a user module changed since the run started (the resume records it)',
    )
    .option('--json', 'JSON log lines, and the closing summary as JSON on stdout')
    .option(
      '--all',
      'every checkpoint in the closing summary (on a terminal long tables are shortened)',
    )
    .option(
      '--inspect',
      'watch every actor in the Stately inspector: start a relay on 127.0.0.1 and print its URL; waits for Enter at the end on a terminal',
    )
    .option('--inspect-port <port>', 'the inspector relay port (default 8080; 0 picks a free port)')
    .option(
      '--inspect-wait <seconds>',
      'after the run, keep the inspector up until a viewer has the whole run or the seconds pass (implies --inspect; how to watch a short run off a terminal)',
    )
    .option(
      '--trace <file.jsonl>',
      'record every inspection event to a JSONL file (see it with arena trace)',
    )
    .action(async (runFile: string | undefined, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<RunCommandOptions>();
      process.exitCode = await runCommand(runFile, options);
    });
}

async function runCommand(
  runFile: string | undefined,
  options: RunCommandOptions,
): Promise<number> {
  checkViewFlags(options);
  const location = parseStoreUri(options.store);
  // a new run's file is checked before the store is even opened: a bad file leaves nothing behind
  const fresh = options.resume === undefined ? await loadRunFileForRun(runFile) : null;
  const natsUrl = fresh !== null ? remoteComponentsTargetOf(fresh.spec, options) : null;
  // a resume continues a stored run: a mistyped --store is "no store at …", never a new empty store
  if (
    fresh === null &&
    location.kind === 'sqlite' &&
    location.path !== ':memory:' &&
    !existsSync(location.path)
  ) {
    throw new StoreNotFoundError(location.path);
  }
  const store = await openStoreAsync(location);
  const logger = createLogger({ level: options.logLevel, json: options.json === true });
  const abort = new AbortController();
  const releaseInterrupt = onInterrupt(abort, 'cancelling (Ctrl-C again to force)');
  const progress = new RunProgress();
  let inspection: RunInspection | null = null;
  let remote: RemoteComponentHost | null = null;
  try {
    const { spec, text } =
      fresh ?? (await loadStoredSpec(runFile, options.resume as string, store));
    const url = fresh !== null ? natsUrl : remoteComponentsTargetOf(spec, options);
    if (url !== null) remote = await openRemoteComponents(url);
    inspection = await startRunInspection(options);
    const inspect = inspection.inspect;
    const attempt = (resumeRunId: string | undefined) =>
      runExperiment(spec, {
        store,
        builtins: builtinComponents,
        runFileText: text,
        logger,
        signal: abort.signal,
        leaseTtlMs: leaseTtlFromEnvironment(),
        ...(remote !== null ? { remoteComponents: remote } : {}),
        ...(resumeRunId !== undefined ? { resumeRunId } : {}),
        ...(options.force === true ? { force: true } : {}),
        onEvent: (event) => progress.on(event),
        ...(inspect !== undefined ? { inspect } : {}),
      });
    const summary = await untilServicesAnswer(
      attempt,
      options.resume,
      abort.signal,
      progress,
      location,
    );
    progress.finish();
    if (options.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else {
      process.stdout.write(`${closingSummaryText(summary, location, options.all === true)}
`);
    }
    return exitCodeOf(summary);
  } catch (error) {
    progress.finish();
    if (error instanceof RunNotFoundError) {
      throw new CliError(
        `no run '${error.runId}' in ${location.path} (${arenaCommand(`runs${storeArgument(location)}`)} lists the runs)`,
      );
    }
    if (error instanceof LeaseLostError) throw new CliError(error.message, ExitCode.failed);
    throw error;
  } finally {
    releaseInterrupt();
    store.close();
    await remote?.close();
    await inspection?.finish();
  }
}

/**
 * Run (or resume) until the run ends. When a remote component's service stops
 * answering, the runner leaves the run at its last barrier
 * (`RunInterruptedError`); then this waits, with a growing pause, and resumes
 * it once the service answers again: no gap, no doubled step. After
 * `ARENA_REMOTE_WAIT_MS` (default 5 minutes) of waiting it gives up with exit
 * 1, leaving the run to resume later.
 */
async function untilServicesAnswer(
  attempt: (resumeRunId: string | undefined) => Promise<RunSummary>,
  resumeRunId: string | undefined,
  signal: AbortSignal,
  progress: RunProgress,
  location: StoreLocation,
): Promise<RunSummary> {
  const patienceMs = remoteWaitFromEnvironment();
  const started = performance.now();
  let pauseMs = 500;
  let runId = resumeRunId;
  for (;;) {
    try {
      return await attempt(runId);
    } catch (error) {
      if (!(error instanceof RunInterruptedError)) throw error;
      progress.finish();
      runId = error.runId;
      const later = `once the service is back: ${resumeCommand(error.runId, storeArgument(location))}`;
      if (performance.now() - started > patienceMs) {
        throw new CliError(`${error.message}; ${later}`, ExitCode.failed, { cause: error });
      }
      process.stderr.write(
        `arena: ${error.reason}\narena: run ${error.runId} is back at its last barrier; resuming it when the service answers (retry in ${pauseMs / 1000} s)\n`,
      );
      await pause(pauseMs, signal);
      if (signal.aborted) {
        throw new CliError(
          `stopped waiting; run ${error.runId} is at its last barrier, ${later}`,
          ExitCode.cancelled,
        );
      }
      pauseMs = Math.min(pauseMs * 2, 10_000);
    }
  }
}

/** Wait `ms`, or less when `signal` aborts (Ctrl-C while waiting for a service). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** `ARENA_REMOTE_WAIT_MS`: how long `arena run` waits for a gone service before it gives up. */
function remoteWaitFromEnvironment(): number {
  return millisecondsFromEnvironment('ARENA_REMOTE_WAIT_MS', 0) ?? 5 * 60_000;
}

/** `arena run`'s exit code for a run's closing summary: 0 succeeded, 130 cancelled, 1 failed. */
export function exitCodeOf(summary: RunSummary): number {
  if (summary.status === 'succeeded') return ExitCode.ok;
  if (summary.status === 'cancelled') return ExitCode.cancelled;
  return ExitCode.failed;
}

async function loadStoredSpec(
  runFile: string | undefined,
  resume: string,
  store: RunStore,
): Promise<{ spec: RunSpec; text: string }> {
  const record = store.getRun(resume);
  if (runFile !== undefined) {
    const text = await readRunFileText(runFile);
    if (text !== record.runFile) {
      throw new CliError(
        `${runFile} differs from the run file stored with run '${resume}': resume runs the stored one, so omit the file`,
      );
    }
  }
  if (record.runFileSha256 !== null && sha256Hex(record.runFile) !== record.runFileSha256) {
    throw new CliError(
      `the run file stored with run '${resume}' does not match its recorded sha256: the store was changed by hand`,
    );
  }
  // components resolve against the run file's folder (stored as an absolute path), wherever arena runs
  return {
    spec: parseRunFile(record.runFile, { sourcePath: record.runFilePath }),
    text: record.runFile,
  };
}

/** Read and validate a run file as `arena run` does: a bad one is a `CliError` with exit code 2. */
export async function loadRunFileForRun(
  runFile: string | undefined,
): Promise<{ spec: RunSpec; text: string }> {
  if (runFile === undefined) {
    throw new CliError('a run file is required (or --resume <run-id>)');
  }
  try {
    const text = await readRunFileText(runFile);
    // the checks of arena validate, before a run exists: a bad file never leaves one in the store
    const spec = await validateRunFileText(text, {
      sourcePath: runFile,
      builtins: builtinComponents,
    });
    return { spec, text };
  } catch (error) {
    if (error instanceof RunFileError)
      throw new CliError(error.message, ExitCode.badInput, { cause: error });
    throw error;
  }
}

/** The progress bar of a run: phase, episode, last evaluation metric, termination state. */
class RunProgress {
  private bar: ProgressBar | null = null;
  private done = 0;
  private lastMetric = '';

  on(event: RunEvent): void {
    switch (event.type) {
      case 'phase.started':
        this.bar?.finish();
        this.done = 0;
        this.lastMetric = '';
        this.bar = createProgressBar({
          total: event.episodes ?? 0,
          label: `${event.name} (${event.mode})`,
          stream: process.stderr,
        });
        this.bar.update(0, 'starting');
        return;
      case 'episode.completed':
        if (!event.summary.evaluation) this.done = event.summary.episode;
        this.bar?.update(this.done, this.note('running'));
        return;
      case 'checkpoint.completed': {
        // the first metric of each agent: what the rules usually read (`objective`)
        const metrics = event.verdict.outcomes
          .map((outcome) => {
            const [name, value] = Object.entries(outcome.metrics)[0] ?? [];
            return name === undefined ? '' : `${name} ${Number((value as number).toPrecision(4))}`;
          })
          .filter(Boolean)
          .join(', ');
        this.lastMetric = metrics;
        const decision = event.verdict.decision as { reason?: string | null } | null;
        this.bar?.update(this.done, this.note(decision?.reason ?? 'active'));
        return;
      }
      case 'phase.finished':
        this.bar?.update(this.done, this.note(event.reason ?? event.status));
        this.bar?.finish();
        this.bar = null;
        return;
      default:
        return;
    }
  }

  private note(state: string): string {
    return [this.lastMetric && `eval ${this.lastMetric}`, state].filter(Boolean).join(' | ');
  }

  finish(): void {
    this.bar?.finish();
    this.bar = null;
  }
}
