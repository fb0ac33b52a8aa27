import { createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Command } from 'commander';
import type { Subscription } from 'rxjs';
import { judgeFromConfig } from '../../actors/judging/judgeFromConfig.js';
import type { Judge } from '../../actors/judging/judges.js';
import { judgeTrials } from '../../actors/judging/judgeTrials.js';
import { type JudgeConfig, loadJudgeConfig } from '../../config/judgeConfig.js';
import { type MalformedCaseLine, parseCaseLine } from '../../domain/judge/cases.js';
import type { JudgeContext } from '../../domain/judge/context.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import {
  failedGates,
  type JudgeSummary,
  summarizeJudgeResults,
} from '../../domain/judge/summary.js';
import { createLogger, type LogLevel } from '../../ports/logger.js';
import { CliError, ExitCode } from '../errors.js';
import { fileLines, fileSha256, isFileSystemError } from '../fileLines.js';
import { createProgressBar } from '../progress.js';
import {
  type AgreementReport,
  agreementReport,
  checkAgreementGate,
  parseTrials,
} from './judgePanelReport.js';

export interface JudgeCommandOptions {
  logLevel: LogLevel;
  config: string;
  out?: string;
  json?: boolean;
  concurrency: string;
  judge?: string;
  runId?: string;
  store?: string;
  nats?: string;
  wait?: boolean;
  cache: boolean;
  maxInFlight?: string;
  trials?: string;
}

/**
 * Register `arena judge <cases.jsonl> --config <judge.yaml>`. The config's judge
 * is a model judge or an agent judge (its agent from `agents.<name>.module`).
 *
 * Results go to `--out` as JSON lines (or to stdout when there is no `--out`);
 * the summary goes to stdout with `--out`, else to stderr (`--json`: one JSON
 * object). Exit code: 0 all gates pass, 1 a gate failed, 2 a config or input
 * error (a malformed case line is reported with its number and the other
 * cases are still judged).
 *
 * @example
 * ```sh
 * arena judge examples/judge/cases.jsonl --config examples/judge/replay.yaml --out results.jsonl
 * # judged 4 cases with strict: passed 2, failed 1, skipped 1, error 0
 * # mean score 0.6333, pass rate 0.6667, tokens 1028 (in 865, out 163), cost $0.000000
 * # gates: pass
 * ```
 */
export function registerJudgeCommand(program: Command): void {
  program
    .command('judge')
    .description('judge every case of a JSON lines file with a judge from a config file')
    .argument('<cases>', 'JSON lines file: {"case_id", "input", "candidate_output", ...} per line')
    .requiredOption('--config <file>', 'judge config (YAML): models, judges, rubric, gates')
    .option('--out <file>', 'write results as JSON lines to this file')
    .option('--json', 'print the summary as one JSON object')
    .option('--concurrency <n>', 'judgements in flight at once', '8')
    .option('--judge <name>', "judge profile or panel to use (default: the config's judge)")
    .option(
      '--run-id <id>',
      'evaluation run id for cases without one (default: derived from the cases file)',
    )
    .option(
      '--store <uri>',
      'record the evaluation run, its verdicts and the verdict cache in this store (sqlite:path or postgres://…; default with --nats: ARENA_STORE)',
    )
    .option(
      '--nats <url>',
      'queue the cases on NATS JetStream for arena worker processes (with --wait alone: ARENA_NATS)',
    )
    .option('--wait', 'with --nats: follow the run to its end, then print the summary')
    .option('--no-cache', 'with --store: neither read nor fill the verdict cache')
    .option(
      '--max-in-flight <n>',
      'with --nats: set the fleet-wide cap on judgements in flight across all workers (kept as set when omitted; 128 at first)',
    )
    .option('--trials <n>', 'judge each case n times and report how stable the verdicts are', '1')
    .action((casesPath: string, _options: unknown, command: Command) =>
      runJudgeCommand(casesPath, command.optsWithGlobals<JudgeCommandOptions>()),
    );
}

async function runJudgeCommand(casesPath: string, options: JudgeCommandOptions): Promise<void> {
  const concurrency = Number(options.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new CliError(`--concurrency must be a positive integer, got '${options.concurrency}'`);
  }
  const maxInFlight = options.maxInFlight === undefined ? undefined : Number(options.maxInFlight);
  if (maxInFlight !== undefined && (!Number.isSafeInteger(maxInFlight) || maxInFlight < 1)) {
    throw new CliError(`--max-in-flight must be a positive integer, got '${options.maxInFlight}'`);
  }
  const trials = parseTrials(options.trials);
  if (
    (options.nats !== undefined || options.store !== undefined || options.wait === true) &&
    trials > 1
  ) {
    throw new CliError(
      '--trials judges in one process: it does not go with --store, --nats or --wait',
    );
  }
  if (options.nats !== undefined || options.wait === true || maxInFlight !== undefined) {
    const { judgeOnFleet } = await import('./judgeFleet.js');
    const { maxInFlight: _text, ...rest } = options;
    await judgeOnFleet(casesPath, {
      ...rest,
      ...(maxInFlight !== undefined ? { maxInFlight } : {}),
    });
    return;
  }
  if (options.store !== undefined) {
    const { judgeIntoStoreHere } = await import('./judgeFleet.js');
    await judgeIntoStoreHere(casesPath, { ...options, concurrency });
    return;
  }
  const { config, baseDir } = loadJudgeConfig(options.config);
  const logger = createLogger({ level: options.logLevel, json: options.json === true });
  const judge = await judgeFromConfig(config, {
    baseDir,
    logger,
    // One connection per judgement in flight, kept alive: no more are ever opened.
    maxConnections: concurrency,
    ...(options.judge ? { name: options.judge } : {}),
  });
  checkAgreementGate(config, judge, trials);
  const { cases, malformed } = await readCases(casesPath, options.runId);
  for (const problem of malformed) {
    process.stderr.write(`arena: ${casesPath} line ${problem.line}: ${problem.message}\n`);
  }
  const results = await judgeAll(cases, judge, concurrency, options.out, trials);
  const agreement = agreementReport(results, { trials, minAgreement: config.gates.min_agreement });
  reportJudgeRun(
    judge.settings.name,
    summarizeJudgeResults(results),
    malformed.length,
    config,
    options,
    agreement,
  );
}

/**
 * Print the summary and gates (a panel's or the trials' agreement among
 * them), and set the exit code: 2 for malformed lines, 1 for a failed gate.
 */
export function reportJudgeRun(
  judgeName: string,
  summary: JudgeSummary,
  malformedLines: number,
  config: JudgeConfig,
  options: Pick<JudgeCommandOptions, 'json' | 'out'>,
  agreement: AgreementReport = { lines: [], json: {}, failedGates: [] },
  extra: Record<string, unknown> = {},
): void {
  const gates = failedGates(summary, {
    ...(config.gates.min_pass_rate !== undefined
      ? { minPassRate: config.gates.min_pass_rate }
      : {}),
    ...(config.gates.min_mean_score !== undefined
      ? { minMeanScore: config.gates.min_mean_score }
      : {}),
    ...(config.gates.max_errors !== undefined ? { maxErrors: config.gates.max_errors } : {}),
  });
  gates.push(...agreement.failedGates);
  const report = options.json
    ? `${JSON.stringify({ judge: judgeName, ...extra, summary, malformedLines, failedGates: gates, ...agreement.json })}\n`
    : formatSummary(judgeName, summary, malformedLines, gates, agreement);
  (options.out ? process.stdout : process.stderr).write(report);
  if (malformedLines > 0) process.exitCode = ExitCode.badInput;
  else if (gates.length > 0) process.exitCode = ExitCode.failed;
}

/** Read the cases file a line at a time; a malformed line is kept to report, the rest still judged. */
export async function readCases(
  casesPath: string,
  runId: string | undefined,
): Promise<{ cases: JudgeContext[]; malformed: MalformedCaseLine[] }> {
  const file = await open(casesPath).catch((error: unknown) => {
    throw new CliError(`cannot read cases file ${casesPath}`, ExitCode.badInput, { cause: error });
  });
  try {
    const defaultRunId = runId ?? `judge-${(await fileSha256(file)).slice(0, 12)}`;
    const cases: JudgeContext[] = [];
    const malformed: MalformedCaseLine[] = [];
    let line = 0;
    for await (const text of fileLines(file)) {
      line += 1;
      const outcome = parseCaseLine(text, line, defaultRunId);
      if (outcome.kind === 'case') cases.push(outcome.context);
      else if (outcome.kind === 'malformed') malformed.push(outcome.problem);
    }
    return { cases, malformed };
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw new CliError(`cannot read cases file ${casesPath}`, ExitCode.badInput, { cause: error });
  } finally {
    await file.close();
  }
}

/** Judge every case, writing each result as it finishes; Ctrl-C cancels what is in flight. */
function judgeAll(
  cases: JudgeContext[],
  judge: Judge,
  concurrency: number,
  outPath: string | undefined,
  trials: number,
): Promise<JudgeResult[]> {
  const out: WriteStream | NodeJS.WriteStream = outPath
    ? createWriteStream(outPath)
    : process.stdout;
  const bar = createProgressBar({
    total: cases.length * trials,
    label: 'judging',
    stream: process.stderr,
  });
  const results: JudgeResult[] = [];
  let errors = 0;
  // Lines of the results finished in one event-loop turn, written together: one write, not one each.
  let pendingLines = '';
  const writePending = (): void => {
    if (pendingLines === '') return;
    out.write(pendingLines);
    pendingLines = '';
  };
  return new Promise<JudgeResult[]>((resolve, reject) => {
    let subscription: Subscription | undefined;
    const onInterrupt = (): void => {
      subscription?.unsubscribe();
      writePending();
      bar.finish();
      reject(new CliError('interrupted: judgements in flight were cancelled', ExitCode.cancelled));
    };
    process.once('SIGINT', onInterrupt);
    const finish = (error?: unknown): void => {
      process.removeListener('SIGINT', onInterrupt);
      writePending();
      bar.finish();
      const done = (): void => (error === undefined ? resolve(results) : reject(error));
      if (out === process.stdout) done();
      else (out as WriteStream).end(done);
    };
    subscription = judgeTrials(cases, judge, { concurrency, trials }).subscribe({
      next: (result) => {
        results.push(result);
        if (result.status === 'error') errors++;
        if (pendingLines === '') setImmediate(writePending);
        pendingLines += `${JSON.stringify(result)}\n`;
        bar.update(results.length, errors > 0 ? `${errors} errors` : '');
      },
      error: (error: unknown) => finish(error),
      complete: () => finish(),
    });
  });
}

export function formatSummary(
  judgeName: string,
  summary: JudgeSummary,
  malformed: number,
  gates: string[],
  extra: AgreementReport,
): string {
  const statuses = (['passed', 'failed', 'skipped', 'error'] as const)
    .map((status) => `${status} ${summary.byStatus[status]}`)
    .join(', ');
  const ratio = (value: number | null): string =>
    value === null ? 'n/a' : String(Number(value.toFixed(4)));
  const lines = [
    `judged ${extra.judged ?? `${summary.total} cases`} with ${judgeName}: ${statuses}${malformed > 0 ? `; ${malformed} malformed lines skipped` : ''}`,
    `mean score ${ratio(summary.meanScore)}, pass rate ${ratio(summary.passRate)}, tokens ${summary.totalTokens} (in ${summary.inputTokens}, out ${summary.outputTokens}), cost $${summary.costUsd.toFixed(6)}`,
    ...extra.lines,
    gates.length === 0 ? 'gates: pass' : `gates: FAILED: ${gates.join('; ')}`,
  ];
  return `${lines.join('\n')}\n`;
}
