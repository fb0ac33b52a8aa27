import { createWriteStream, type WriteStream } from 'node:fs';
import type { Command } from 'commander';
import type { Subscription } from 'rxjs';
import type { InspectionEvent, Observer } from 'xstate';
import type { Judge } from '../../actors/judging/judges.js';
import { judgeTrials } from '../../actors/judging/judgeTrials.js';
import { type JudgeConfig, judgeModeOf, loadJudgeConfig } from '../../config/judgeConfig.js';
import { sequentialGateSpecs } from '../../config/sequentialGateConfig.js';
import type { JudgeContext } from '../../domain/judge/context.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import { judgeSummaryAccumulator } from '../../domain/judge/summary.js';
import { CliError, ExitCode } from '../errors.js';
import { fileSha256 } from '../fileLines.js';
import { createProgressBar } from '../progress.js';
import { wholeNumberBounds, wholeNumberFlag } from '../wholeNumberFlag.js';
import { refuseCalibrationGatesWithoutStore } from './calibrationGate.js';
import { registerJudgeCalibrateCommand } from './judgeCalibrate.js';
import {
  caseContexts,
  commandJudge,
  defaultRunIdOf,
  type JudgeCommandOptions,
  openCases,
  reportJudgeRun,
  scanCases,
} from './judgeCommandIo.js';
import type { JudgeCompareOptions } from './judgeCompare.js';
import { checkAgreementGate, parseTrials } from './judgePanelReport.js';
import { parseReduceOption, trialReduction } from './judgeReduce.js';
import { judgeSequentially, parseDrawSeed } from './judgeSequential.js';
import { withNatsOptions } from './natsTarget.js';
import { checkPairwiseOptions, extrasReporter } from './pairwiseReport.js';
import { checkViewFlags, startCommandViewer, viewWanted, withViewOptions } from './viewOptions.js';

/**
 * Register `arena judge <cases.jsonl> --config <judge.yaml>`. The config's judge
 * is a model judge or an agent judge (its agent from `agents.<name>.module`).
 *
 * Results go to `--out` as JSON lines (or to stdout when there is no `--out`);
 * the summary goes to stdout with `--out`, else to stderr; `--json` prints it
 * as one JSON object on stdout (after the result lines without `--out`). Exit code: 0 all gates pass, 1 a gate failed, 2 a config or input
 * error (a malformed case line is reported with its number and the other
 * cases are still judged).
 *
 * @example
 * ```sh
 * arena judge examples/judge/cases.jsonl --config examples/judge/replay.yaml --out results.jsonl
 * # judged 4 cases with strict: passed 2, failed 1, skipped 1, error 0
 * # pass rate 0.6667 (95% CI 0.2077-0.9385, n 3), mean score 0.6333 (95% CI -0.7348 to 2.0015, n 3)
 * # tokens 1028 (in 865, out 163), cost $0.000000
 * # gates: pass
 * ```
 */
export function registerJudgeCommand(program: Command): void {
  const command = program
    .command('judge')
    .description('judge every case of a JSON lines file with a judge from a config file')
    .usage('[options] <cases> | calibrate [options] <cases> | compare [options] <a> <b>')
    .argument('<cases>', 'JSON lines file: {"case_id", "input", "candidate_output", ...} per line')
    .option('--config <file>', 'judge config (YAML): models, judges, rubric, gates (required)')
    .option('--out <file>', 'write results as JSON lines to this file')
    .option('--json', 'print the summary as one JSON object')
    .option('--concurrency <n>', 'judgements in flight at once, 1 to 10000', '8')
    .option('--judge <name>', "judge profile or panel to use (default: the config's judge)")
    .option(
      '--run-id <id>',
      'evaluation run id for cases without one (default: derived from the cases file)',
    )
    .option(
      '--store <uri>',
      'record the evaluation run, its verdicts and the verdict cache in this store (sqlite:path or postgres://…; default with --nats: ARENA_STORE)',
    );
  withNatsOptions(
    command,
    'queue the cases on NATS JetStream for arena worker processes (with --wait alone: ARENA_NATS)',
  )
    .option('--wait', 'with --nats: follow the run to its end, then print the summary')
    .option('--no-cache', 'with --store: neither read nor fill the verdict cache')
    .option(
      '--keep-texts',
      "with --nats: keep the cases' texts in the store after the evaluation run ends (by default a finished run keeps its verdicts and each case's digest, and drops the texts)",
    )
    .option(
      '--max-in-flight <n>',
      'with --nats: set the fleet-wide cap on judgements in flight across all workers, 1 to 1000000 (kept as set when omitted; 128 at first)',
    )
    .option('--trials <n>', 'judge each case n times and report how stable the verdicts are', '1')
    .option(
      '--seed <n>',
      "with gates.sequential: the seed of the cases' random draw order (default: derived from the run id)",
    )
    .option(
      '--resume <evaluation-run-id>',
      'with gates.sequential and --store (or --nats): continue a stored evaluation run in its draw order from its saved wealth',
    )
    .option(
      '--reduce <reducer>',
      "with --trials: reduce each case's trials to one value (mode, mean, median, max, min, pass_at_K, at_least_K); the summary and gates fold those",
    );
  withViewOptions(command).action((casesPath: string, _options: unknown, command: Command) => {
    // checked here, not by commander: a required option of `judge` would be required of `judge compare` too
    if (command.opts().config === undefined) {
      command.error("error: required option '--config <file>' not specified", {
        code: 'commander.missingMandatoryOptionValue',
      });
    }
    return runJudgeCommand(casesPath, command.optsWithGlobals<JudgeCommandOptions>());
  });
  registerJudgeCalibrateCommand(command);
  command
    .command('compare')
    .description(
      'compare two judge runs over the same cases, paired: McNemar for pass/fail, the paired t test for scores',
    )
    .argument(
      '<a>',
      'the first run: an arena judge --out results file, or an evaluation run id with --store',
    )
    .argument('<b>', 'the second run, the same way')
    .option(
      '--store <uri>',
      'find run ids in this store (sqlite:path or postgres://…; default ARENA_STORE)',
    )
    .option('--alpha <p>', 'the significance level of the verdict', '0.05')
    .option('--fail-if-worse', 'exit 1 when B is significantly worse than A (a regression gate)')
    .option('--json', 'print the comparison as one JSON object')
    .action(async (a: string, b: string, _options: unknown, compare: Command) => {
      const { judgeCompareCommand } = await import('./judgeCompare.js');
      // `--json` and `--store` are options of `judge` too: commander hands them to it
      await judgeCompareCommand(a, b, compare.optsWithGlobals<JudgeCompareOptions>());
    });
}

/** The largest fleet-wide cap on judgements in flight `--max-in-flight` takes: far past any fleet, far below JetStream's limit. */
const maxJudgementsInFlight = 1_000_000;

async function runJudgeCommand(casesPath: string, options: JudgeCommandOptions): Promise<void> {
  checkViewFlags(options);
  if (viewWanted(options)) {
    const fleetFlags = [
      options.nats !== undefined ? '--nats' : null,
      options.wait === true ? '--wait' : null,
      options.maxInFlight !== undefined ? '--max-in-flight' : null,
    ].filter((flag) => flag !== null);
    if (fleetFlags.length > 0) {
      throw new CliError(
        `--view shows the judges of this process, and with ${fleetFlags.join(', ')} the fleet's workers judge, each in its own process: drop --view (or judge here with --store alone)`,
      );
    }
  }
  const concurrency = wholeNumberFlag(
    '--concurrency',
    options.concurrency,
    wholeNumberBounds.judgeConcurrency,
  );
  const maxInFlight = options.maxInFlight === undefined ? undefined : Number(options.maxInFlight);
  if (
    maxInFlight !== undefined &&
    (!Number.isSafeInteger(maxInFlight) || maxInFlight < 1 || maxInFlight > maxJudgementsInFlight)
  ) {
    throw new CliError(
      `--max-in-flight must be a whole number from 1 to ${maxJudgementsInFlight}, got '${options.maxInFlight}'`,
    );
  }
  const trials = parseTrials(options.trials);
  const reducer = parseReduceOption(options.reduce, trials);
  if (
    (options.nats !== undefined || options.store !== undefined || options.wait === true) &&
    trials > 1
  ) {
    throw new CliError(
      '--trials judges in one process: it does not go with --store, --nats or --wait',
    );
  }
  const seed = parseDrawSeed(options.seed);
  const sequential = refuseSequentialBeyondOneProcess(options, trials, seed);
  const fleet = options.nats !== undefined || options.wait === true || maxInFlight !== undefined;
  if (sequential && (fleet || options.store !== undefined)) {
    const { judgeSequentiallyStoredCommand } = await import('./judgeSequentialStored.js');
    const { seed: _seed, maxInFlight: _cap, ...rest } = options;
    await withJudgeViewer(casesPath, options, (inspect) =>
      judgeSequentiallyStoredCommand(casesPath, {
        ...rest,
        concurrency,
        fleet,
        ...(seed !== undefined ? { seed } : {}),
        ...(maxInFlight !== undefined ? { maxInFlight } : {}),
        ...(inspect !== undefined ? { inspect } : {}),
      }),
    );
    return;
  }
  if (fleet) {
    const { judgeOnFleetCommand } = await import('./judgeFleet.js');
    const { maxInFlight: _text, ...rest } = options;
    await judgeOnFleetCommand(casesPath, {
      ...rest,
      ...(maxInFlight !== undefined ? { maxInFlight } : {}),
    });
    return;
  }
  if (options.store !== undefined) {
    const { judgeIntoStoreCommand } = await import('./judgeFleet.js');
    await withJudgeViewer(casesPath, options, (inspect) =>
      judgeIntoStoreCommand(casesPath, {
        ...options,
        concurrency,
        ...(inspect !== undefined ? { inspect } : {}),
      }),
    );
    return;
  }
  const { config, baseDir } = loadJudgeConfig(options.config);
  const mode = judgeModeOf(config, options.judge);
  checkPairwiseOptions(config, mode, trials, options.config);
  refuseCalibrationGatesWithoutStore(config, options.config);
  await withJudgeViewer(casesPath, options, (inspect) =>
    judgeInThisProcess(casesPath, options, {
      config,
      baseDir,
      concurrency,
      trials,
      reducer,
      sequential,
      seed,
      inspect,
      mode,
    }),
  );
}

/**
 * Judge with arena's viewer serving the judges' actors when the view flags ask
 * for it: started once the config reads (a bad config is exit 2 with nothing
 * served), kept up after the judging as `--view-wait` says.
 */
async function withJudgeViewer(
  casesPath: string,
  options: JudgeCommandOptions,
  judging: (inspect: Observer<InspectionEvent> | undefined) => Promise<void>,
): Promise<void> {
  loadJudgeConfig(options.config);
  const viewer = await startCommandViewer(options, `arena judge ${casesPath}`);
  try {
    await judging(viewer?.inspect);
  } finally {
    await viewer?.finish();
  }
}

/** The judging of `arena judge` in one process, without a store: each case's judge actor shown by `viewer` when there is one. */
async function judgeInThisProcess(
  casesPath: string,
  options: JudgeCommandOptions,
  how: {
    readonly config: JudgeConfig;
    readonly baseDir: string;
    readonly concurrency: number;
    readonly trials: number;
    readonly reducer: ReturnType<typeof parseReduceOption>;
    readonly sequential: boolean;
    readonly seed: number | undefined;
    /** XState's `inspect` for each case's judge actor (the viewer's), when one watches. */
    readonly inspect: Observer<InspectionEvent> | undefined;
    readonly mode: ReturnType<typeof judgeModeOf>;
  },
): Promise<void> {
  const { config, baseDir, concurrency, trials, reducer, sequential, seed, mode } = how;
  const judge = await commandJudge(config, baseDir, options, concurrency, how.inspect);
  checkAgreementGate(config, judge, trials);
  const gates = sequential
    ? sequentialGateSpecs(config, judge.settings.name, options.config)
    : null;
  const file = await openCases(casesPath);
  if (gates !== null) {
    try {
      const { seed: _text, ...rest } = options;
      await judgeSequentially(file, casesPath, judge, config, gates, {
        ...rest,
        concurrency,
        ...(seed !== undefined ? { seed } : {}),
      });
    } finally {
      await file.close().catch(() => undefined);
    }
    return;
  }
  try {
    const defaultRunId = options.runId ?? defaultRunIdOf(await fileSha256(file));
    // read once to refuse what cannot be judged, then again as the judging takes the cases
    const scan = await scanCases(file, defaultRunId, casesPath, { mode });
    const reporting = {
      summary: judgeSummaryAccumulator({ trials }),
      agreement: extrasReporter(config, judge.settings.name, mode, trials),
      reduction: reducer === null ? null : trialReduction(reducer, trials),
    };
    await judgeAll(caseContexts(file, defaultRunId, casesPath, mode), judge, {
      concurrency,
      outPath: options.out,
      trials,
      total: scan.judgements * trials,
      onResult: (result) => {
        reporting.summary.add(result);
        reporting.agreement.add(result);
        return reporting.reduction?.add(result) ?? null;
      },
      closing: () => reporting.reduction?.flush() ?? [],
    });
    const summary = reporting.summary.summary();
    reportJudgeRun(
      judge.settings.name,
      reporting.reduction?.summaryOf(summary) ?? summary,
      scan.malformed,
      config,
      options,
      reporting.agreement.report(),
    );
  } finally {
    await file.close().catch(() => undefined);
  }
}

/**
 * Whether the config asks for the sequential gate, refusing (exit 2) what it
 * does not go with: `--trials`; and `--seed` or `--resume` without it, and
 * `--resume` without a store.
 */
function refuseSequentialBeyondOneProcess(
  options: JudgeCommandOptions,
  trials: number,
  seed: number | undefined,
): boolean {
  const sequential = loadJudgeConfig(options.config).config.gates.sequential !== undefined;
  if (!sequential) {
    if (seed !== undefined) {
      throw new CliError(
        `--seed orders the cases for gates.sequential, and ${options.config} has no gates.sequential`,
      );
    }
    if (options.resume !== undefined) {
      throw new CliError(
        `--resume continues an evaluation run of gates.sequential, and ${options.config} has no gates.sequential`,
      );
    }
    return false;
  }
  if (trials > 1) {
    throw new CliError(
      `${options.config}: gates.sequential folds one verdict a case: it does not go with --trials yet`,
    );
  }
  const stored = options.store !== undefined || options.nats !== undefined || options.wait === true;
  if (options.resume !== undefined && !stored) {
    throw new CliError(
      `--resume ${options.resume} continues a stored evaluation run: give the store it is in (--store <uri>)`,
    );
  }
  return true;
}

/**
 * Judge every case, writing each result as it finishes (nothing is kept:
 * `onResult` folds what the summary needs, and may hand back a record to write
 * after the result, as a case's `reduced` record); Ctrl-C cancels what is in flight.
 */
function judgeAll(
  cases: AsyncIterable<JudgeContext>,
  judge: Judge,
  options: {
    readonly concurrency: number;
    readonly outPath: string | undefined;
    readonly trials: number;
    readonly total: number;
    readonly onResult: (result: JudgeResult) => object | null;
    /** Records to write once every judgement is in. */
    readonly closing?: () => readonly object[];
  },
): Promise<void> {
  const { concurrency, outPath, trials } = options;
  const out: WriteStream | NodeJS.WriteStream = outPath
    ? createWriteStream(outPath)
    : process.stdout;
  const bar = createProgressBar({
    total: options.total,
    label: 'judging',
    stream: process.stderr,
  });
  let judged = 0;
  let errors = 0;
  // Lines of the results finished in one event-loop turn, written together: one write, not one each.
  let pendingLines = '';
  const writePending = (): void => {
    if (pendingLines === '') return;
    out.write(pendingLines);
    pendingLines = '';
  };
  return new Promise<void>((resolve, reject) => {
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
      const done = (): void => (error === undefined ? resolve() : reject(error));
      if (out === process.stdout) done();
      else (out as WriteStream).end(done);
    };
    subscription = judgeTrials(cases, judge, { concurrency, trials }).subscribe({
      next: (result) => {
        judged++;
        const record = options.onResult(result);
        if (result.status === 'error') errors++;
        if (pendingLines === '') setImmediate(writePending);
        pendingLines += `${JSON.stringify(result)}\n`;
        if (record !== null) pendingLines += `${JSON.stringify(record)}\n`;
        bar.update(judged, errors > 0 ? `${errors} errors` : '');
      },
      error: (error: unknown) => finish(error),
      complete: () => {
        for (const record of options.closing?.() ?? [])
          pendingLines += `${JSON.stringify(record)}\n`;
        finish();
      },
    });
  });
}
