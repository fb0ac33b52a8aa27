import type { Command } from 'commander';
import type { RunEvent } from '../../actors/runEvents.js';
import { runExperiment } from '../../actors/runExperiment.js';
import type { RunSummary } from '../../actors/runSummary.js';
import { builtinComponents } from '../../builtins/index.js';
import { parseRunFile, readRunFileText } from '../../config/runFile.js';
import type { RunSpec } from '../../config/runSpec.js';
import { createLogger, type LogLevel } from '../../ports/logger.js';
import type { RunStore } from '../../ports/store.js';
import { RunNotFoundError } from '../../ports/storeErrors.js';
import { openStore, parseStoreUri } from '../../ports/storeUri.js';
import { CliError, ExitCode } from '../errors.js';
import { createProgressBar, type ProgressBar } from '../progress.js';
import { type RunInspection, startRunInspection } from './runInspection.js';
import { formatRunSummary } from './runSummaryText.js';

interface RunCommandOptions {
  store?: string;
  resume?: string;
  json?: boolean;
  inspect?: boolean;
  inspectPort?: string;
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
  program
    .command('run')
    .description("run an experiment's schedule from a YAML run file and record it in the store")
    .argument('[run-file]', 'the run file (omit with --resume: the stored run file is used)')
    .option('--store <uri>', 'the run store, sqlite:PATH (default: sqlite:.arena/arena.db)')
    .option('--resume <run-id>', 'continue a stored run from its last episode barrier')
    .option('--json', 'JSON log lines, and the closing summary as JSON on stdout')
    .option(
      '--inspect',
      'watch every actor in the Stately inspector: start a relay on 127.0.0.1 and print its URL; waits for Enter at the end on a terminal',
    )
    .option('--inspect-port <port>', 'the inspector relay port (default 8080; 0 picks a free port)')
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
  const location = parseStoreUri(options.store);
  const store = openStore(location);
  const logger = createLogger({ level: options.logLevel, json: options.json === true });
  const abort = new AbortController();
  const onSignal = () => {
    if (abort.signal.aborted) return;
    process.stderr.write('\narena: cancelling (Ctrl-C again to force)\n');
    abort.abort();
    process.once('SIGINT', () => process.exit(ExitCode.cancelled));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const progress = new RunProgress();
  let inspection: RunInspection | null = null;
  try {
    const { spec, text } = await loadSpec(runFile, options.resume, store);
    inspection = await startRunInspection(options);
    const summary = await runExperiment(spec, {
      store,
      builtins: builtinComponents,
      runFileText: text,
      logger,
      signal: abort.signal,
      ...(options.resume !== undefined ? { resumeRunId: options.resume } : {}),
      onEvent: (event) => progress.on(event),
      ...(inspection.inspect !== undefined ? { inspect: inspection.inspect } : {}),
    });
    progress.finish();
    if (options.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else process.stdout.write(`${formatRunSummary(summary, location.path)}\n`);
    return exitCodeOf(summary);
  } catch (error) {
    progress.finish();
    if (error instanceof RunNotFoundError) {
      throw new CliError(`no run '${error.runId}' in ${location.path} (arena runs lists the runs)`);
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    store.close();
    await inspection?.finish();
  }
}

function exitCodeOf(summary: RunSummary): number {
  if (summary.status === 'succeeded') return ExitCode.ok;
  if (summary.status === 'cancelled') return ExitCode.cancelled;
  return ExitCode.failed;
}

async function loadSpec(
  runFile: string | undefined,
  resume: string | undefined,
  store: RunStore,
): Promise<{ spec: RunSpec; text: string }> {
  if (resume !== undefined) {
    const record = store.getRun(resume);
    if (runFile !== undefined) {
      const text = await readRunFileText(runFile);
      if (text !== record.runFile) {
        throw new CliError(
          `${runFile} differs from the run file stored with run '${resume}': resume runs the stored one, so omit the file`,
        );
      }
    }
    return {
      spec: parseRunFile(record.runFile, { sourcePath: record.runFilePath }),
      text: record.runFile,
    };
  }
  if (runFile === undefined) {
    throw new CliError('a run file is required (or --resume <run-id>)');
  }
  const text = await readRunFileText(runFile);
  return { spec: parseRunFile(text, { sourcePath: runFile }), text };
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
