import { createWriteStream, type WriteStream } from 'node:fs';
import type { InspectionEvent, Observer } from 'xstate';
import {
  EvaluationRunCancelledError,
  EvaluationRunFailedError,
} from '../../actors/judging/evaluationRunErrors.js';
import { endedRunVerdicts } from '../../actors/judging/evaluationRuns.js';
import { judgeEvaluationRun } from '../../actors/judging/judgeEvaluationRun.js';
import { judgeOnFleet } from '../../actors/judging/judgeOnFleet.js';
import type { Judge } from '../../actors/judging/judges.js';
import {
  type JudgeConfig,
  judgeModeOf,
  loadJudgeConfig,
  selectJudgeName,
} from '../../config/judgeConfig.js';
import type { CaseLineOutcome } from '../../domain/judge/cases.js';
import type { JudgeContext } from '../../domain/judge/context.js';
import { judgeSummaryAccumulator } from '../../domain/judge/summary.js';
import type { JudgeQueue } from '../../ports/queue/judgeQueue.js';
import { patientJudgeQueue } from '../../ports/queue/patientJudgeQueue.js';
import { createRunIdGenerator } from '../../ports/runtime/runId.js';
import {
  caseKeyOf,
  type EvaluationRunRecord,
  type JudgeStore,
  type StoredVerdict,
} from '../../ports/store/judgeStore.js';
import { openJudgeStore } from '../../ports/store/judgeStoreUri.js';
import { patientJudgeStore } from '../../ports/store/patientJudgeStore.js';
import { parseStoreUri } from '../../ports/store/storeUri.js';
import { counted } from '../counted.js';
import {
  serverPatienceFromEnvironment,
  statusSafetyNetFromEnvironment,
} from '../environmentMilliseconds.js';
import { CliError, ExitCode } from '../errors.js';
import { fileSha256 } from '../fileLines.js';
import { createProgressBar, type ProgressBar } from '../progress.js';
import { type CalibrationReport, calibrationReport, withCalibration } from './calibrationGate.js';
import {
  type CasesScan,
  caseContexts,
  caseLines,
  commandJudge,
  defaultRunIdOf,
  evaluationRunOf,
  type JudgeCommandOptions,
  type MessageSize,
  openCases,
  reportJudgeRun,
  scanCases,
} from './judgeCommandIo.js';
import { natsTargetOf } from './natsTarget.js';
import { checkPairwiseOptions, extrasReporter } from './pairwiseReport.js';
import { openJudgeQueue } from './runQueueOpen.js';

/**
 * `arena judge <cases> --nats … --store …`: record an evaluation run, stream
 * the cases onto the JetStream judge queue for `arena worker`s, print the run
 * id; with `--wait`, follow it with one progress bar for all workers and end
 * as a one-process `arena judge` ends (summary, gates, `--out`, exit code).
 * Ctrl-C cancels the evaluation run for the whole fleet.
 *
 * @example
 * ```sh
 * arena judge cases.jsonl --config judge.yaml --nats nats://127.0.0.1:4222 --store postgres://arena@db/arena --wait
 * # queued 2000 cases as evaluation run strict-20261201T110000-3fa2
 * # judged 2000 cases with strict: passed 1200, failed 700, skipped 100, error 0
 * ```
 */
export async function judgeOnFleetCommand(
  casesPath: string,
  options: Omit<JudgeCommandOptions, 'maxInFlight'> & { readonly maxInFlight?: number },
  use: FleetUse = {},
): Promise<void> {
  const { config, baseDir } = loadJudgeConfig(options.config);
  const judgeName = selectJudgeName(config, options.judge);
  const mode = judgeModeOf(config, options.judge);
  checkPairwiseOptions(config, mode, 1, options.config);
  const nats = natsTargetOf(options);
  const location = storeLocationOf(options.store, '--nats');
  const file = await openCases(casesPath);
  const stop = new AbortController();
  const onInterrupt = (): void => stop.abort();
  process.once('SIGINT', onInterrupt);
  let queue: JudgeQueue | null = null;
  let store: JudgeStore | null = null;
  const bars = new Bars();
  try {
    const casesSha256 = await fileSha256(file);
    const defaultRunId = options.runId ?? defaultRunIdOf(casesSha256);
    queue = patientQueue(
      await openJudgeQueue(nats, {
        ...(options.maxInFlight !== undefined ? { maxInFlight: options.maxInFlight } : {}),
      }),
    );
    // read once before anything is queued: a repeated case or one too large for the server is refused
    const scan = await scanCases(file, defaultRunId, casesPath, {
      messageSize: queueMessageSize(queue, judgeName),
      mode,
    });
    store = patientStore(await openJudgeStore(location), stop.signal);
    let malformed = 0;
    // a long file takes a while to queue: a bar over its non-blank lines
    const queueing = bars.open(Math.max(1, scan.judgements + scan.malformed), 'queueing');
    const lines = caseLines(file, defaultRunId, casesPath, mode);
    const kept = { cases: 0 };
    const { run, ended } = await judgeOnFleet(use.keep ? keptLines(lines, use.keep, kept) : lines, {
      store,
      queue,
      run: {
        ...evaluationRunOf(judgeName, { config, baseDir }, casesPath, casesSha256, options.cache),
        keepTexts: options.keepTexts === true,
      },
      wait: options.wait === true,
      signal: stop.signal,
      ...statusSafetyNetFromEnvironment(),
      // told of by the scan
      onMalformed: () => malformed++,
      onQueued: (queued) => queueing.update(queued + malformed),
      onSubmitted: ({ run, duplicates }) => {
        bars.finish();
        say(
          `queued ${queuedText(run.casesTotal, use.keep ? kept.cases : scan.cases, mode)} as evaluation run ${run.evaluationRunId}${duplicates > 0 ? ` (${duplicates} duplicate lines judged once)` : ''}`,
        );
      },
      // followed with one bar over every worker's verdicts
      onProgress: (done, total) =>
        (bars.now ?? bars.open(Math.max(1, total ?? 1), 'judging')).update(done),
    }).catch(cliErrorOf);
    bars.finish();
    if (ended === null) {
      process.stdout.write(`${run.evaluationRunId}\n`);
      if (malformed > 0) process.exitCode = ExitCode.badInput;
      return;
    }
    await (use.finish ?? ((stored, run) => finishStoredRun(stored, run, config, options)))(
      store,
      ended,
    );
  } finally {
    bars.finish();
    process.removeListener('SIGINT', onInterrupt);
    await file.close().catch(() => undefined);
    await queue?.close();
    await store?.close();
  }
}

/** What another command (calibrate) makes of a fleet's run: which cases to queue, and what to do with the ended run's verdicts. */
export interface FleetUse {
  /** Queue only the cases whose id this keeps (the others are skipped as blank lines). */
  readonly keep?: (caseId: string) => boolean;
  /** In place of printing the summary and gates: the ended run, its store still open. */
  readonly finish?: (store: JudgeStore, ended: EvaluationRunRecord) => Promise<void>;
}

/** The lines of the cases `keep` keeps; the others read as blank lines, never queued. */
async function* keptLines(
  lines: AsyncIterable<CaseLineOutcome>,
  keep: (caseId: string) => boolean,
  kept: { cases: number },
): AsyncGenerator<CaseLineOutcome> {
  for await (const outcome of lines) {
    const caseId =
      outcome.kind === 'case'
        ? outcome.context.caseId
        : outcome.kind === 'pairwise'
          ? outcome.caseId
          : null;
    if (caseId === null || keep(caseId)) {
      if (caseId !== null) kept.cases++;
      yield outcome;
    } else yield { kind: 'blank' };
  }
}

/**
 * `arena judge <cases> --store …` without `--nats`: judge in this process into
 * the same tables a fleet writes (one verdict per case, the verdict cache),
 * then report from the store as a fleet's `--wait` does.
 *
 * @example
 * ```sh
 * arena judge cases.jsonl --config judge.yaml --store sqlite:verdicts.db
 * # judged 4 cases with strict: passed 2, failed 1, skipped 1, error 0 (from the cache: 0)
 * ```
 */
export async function judgeIntoStoreCommand(
  casesPath: string,
  options: Omit<JudgeCommandOptions, 'concurrency'> & {
    readonly concurrency: number;
    /** XState's `inspect` for each case's judge actor (`--view`). */
    readonly inspect?: Observer<InspectionEvent>;
  },
): Promise<void> {
  const { config, baseDir } = loadJudgeConfig(options.config);
  const judge = await commandJudge(config, baseDir, options, options.concurrency, options.inspect);
  const location = storeLocationOf(options.store, '--store');
  const file = await openCases(casesPath);
  let store: JudgeStore | null = null;
  try {
    const casesSha256 = await fileSha256(file);
    const defaultRunId = options.runId ?? defaultRunIdOf(casesSha256);
    // read once before anything is judged: a repeated case is refused, naming both lines
    const mode = judgeModeOf(config, options.judge);
    checkPairwiseOptions(config, mode, 1, options.config);
    const scan = await scanCases(file, defaultRunId, casesPath, { mode });
    store = await openJudgeStore(location);
    await judgeScannedIntoStore(store, caseContexts(file, defaultRunId, casesPath, mode), options, {
      judge,
      config,
      baseDir,
      casesPath,
      casesSha256,
      scan,
    });
  } finally {
    await file.close().catch(() => undefined);
    await store?.close();
  }
}

/** Judge the scanned cases into the store as one evaluation run, then report it from the store. */
async function judgeScannedIntoStore(
  openedStore: JudgeStore,
  cases: AsyncIterable<JudgeContext>,
  options: Omit<JudgeCommandOptions, 'concurrency'> & { readonly concurrency: number },
  input: {
    readonly judge: Judge;
    readonly config: JudgeConfig;
    readonly baseDir: string;
    readonly casesPath: string;
    readonly casesSha256: string;
    readonly scan: CasesScan;
  },
): Promise<void> {
  const { judge, config, casesPath, casesSha256, scan } = input;
  const stop = new AbortController();
  const store = patientStore(openedStore, stop.signal);
  const onInterrupt = (): void => stop.abort();
  const bar = createProgressBar({
    total: scan.judgements,
    label: 'judging',
    stream: process.stderr,
  });
  {
    process.once('SIGINT', onInterrupt);
    let done = 0;
    const ended = await judgeEvaluationRun(cases, {
      store,
      judge,
      run: evaluationRunOf(judge.settings.name, input, casesPath, casesSha256, options.cache),
      concurrency: options.concurrency,
      malformedLines: scan.malformed,
      signal: stop.signal,
      onJudged: () => bar.update(++done),
    })
      .catch(cliErrorOf)
      .finally(() => {
        process.removeListener('SIGINT', onInterrupt);
        bar.finish();
      });
    await finishStoredRun(store, ended, config, options);
  }
}

/**
 * Write a finished run's verdicts (`--out`, else stdout) and report its
 * summary and gates, with `more` (a sequential gate's lines) after the rest.
 */
export async function finishStoredRun(
  store: JudgeStore,
  run: EvaluationRunRecord,
  config: JudgeConfig,
  options: Pick<JudgeCommandOptions, 'json' | 'out'>,
  more: CalibrationReport = { lines: [], json: {}, failedGates: [] },
): Promise<void> {
  let verdicts: AsyncGenerator<StoredVerdict>;
  try {
    verdicts = endedRunVerdicts(store, run);
  } catch (error) {
    cliErrorOf(error);
  }
  const out: WriteStream | NodeJS.WriteStream = options.out
    ? createWriteStream(options.out)
    : process.stdout;
  const summary = judgeSummaryAccumulator();
  const agreement = extrasReporter(config, run.judgeName, judgeModeOf(config, run.judgeName), 1);
  let fromCache = 0;
  for await (const verdict of verdicts) {
    summary.add(verdict.result);
    agreement.add(verdict.result);
    if (verdict.fromCache) fromCache++;
    if (!out.write(`${JSON.stringify(verdict.result)}\n`)) {
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  }
  if (out !== process.stdout) {
    await new Promise<void>((resolve, reject) => {
      (out as WriteStream).once('error', reject);
      (out as WriteStream).end(() => resolve());
    });
  }
  if (!options.json)
    say(`evaluation run ${run.evaluationRunId}: ${fromCache} verdicts from the cache`);
  reportJudgeRun(
    run.judgeName,
    summary.summary(),
    run.malformedLines,
    config,
    options,
    withCalibration(
      withCalibration(agreement.report(), await calibrationReport(store, config, run.judgeName)),
      more,
    ),
    {
      evaluationRunId: run.evaluationRunId,
      fromCache,
    },
  );
}

/**
 * What was queued, as a person counts it: cases, or for a pairwise judge the
 * judgements (each order of each pair is one) and the cases they come from.
 *
 * @example
 * ```ts
 * queuedText(24, 4, 'pairwise');
 * // '24 judgements (4 cases, every pair of systems in both orders)'
 * ```
 */
function queuedText(queued: number | null, cases: number, mode: 'single' | 'pairwise'): string {
  if (mode === 'single') return `${queued} cases`;
  return `${queued} judgements (${counted(cases, 'case')}, every pair of systems in both orders)`;
}

/** The bar on stderr now (queueing, then judging): one at a time, each finished once. */
class Bars {
  now: ProgressBar | null = null;
  open(total: number, label: string): ProgressBar {
    this.finish();
    this.now = createProgressBar({ total, label, stream: process.stderr });
    return this.now;
  }
  finish(): void {
    this.now?.finish();
    this.now = null;
  }
}

/**
 * What a case weighs as a judge-queue message, beside the server's
 * `max_payload`; `undefined` for a queue that does not say. The run id is
 * made later: one of the same length stands in for it.
 */
function queueMessageSize(queue: JudgeQueue, judgeName: string): MessageSize | undefined {
  const limit = queue.messageLimit;
  if (limit === undefined) return undefined;
  const evaluationRunId = createRunIdGenerator()(judgeName, new Date());
  return (context) => ({
    bytes: limit.bytesOf({ evaluationRunId, caseKey: caseKeyOf(context) }),
    maxBytes: limit.maxBytes,
  });
}

export function storeLocationOf(option: string | undefined, needs: string) {
  const given = option ?? process.env.ARENA_STORE;
  if (given === undefined || given.trim() === '') {
    throw new CliError(
      `${needs} needs --store <uri> (or ARENA_STORE): the store every worker records verdicts in, e.g. postgres://arena@db-host/arena`,
    );
  }
  return parseStoreUri(given);
}

/** An evaluation run's end, as the CLI tells it: a cancel exits 130, a failed run is bad input. */
/** The store, waited for through a server restart (`ARENA_SERVER_PATIENCE_MS`), then exit 3. */
export function patientStore(store: JudgeStore, signal: AbortSignal): JudgeStore {
  return patientJudgeStore(store, {
    what: 'the judge store',
    patienceMs: serverPatienceFromEnvironment(),
    signal,
    onRetry: (error) =>
      say(
        `the judge store did not answer (${error instanceof Error ? error.message : String(error)}); retrying`,
      ),
  });
}

/** The queue's publishes, made again through a NATS restart (`ARENA_SERVER_PATIENCE_MS`), then exit 3; said once. */
export function patientQueue(queue: JudgeQueue): JudgeQueue {
  let told = false;
  return patientJudgeQueue(queue, {
    what: 'the judge queue',
    patienceMs: serverPatienceFromEnvironment(),
    onRetry: (error) => {
      if (told) return;
      told = true;
      say(
        `the judge queue did not take a case (${error instanceof Error ? error.message : String(error)}); publishing again until the NATS server is back`,
      );
    },
  });
}

export function cliErrorOf(error: unknown): never {
  if (error instanceof EvaluationRunCancelledError) {
    throw new CliError(`interrupted: ${error.message}`, ExitCode.cancelled, { cause: error });
  }
  if (error instanceof EvaluationRunFailedError) {
    throw new CliError(error.message, ExitCode.badInput, { cause: error });
  }
  throw error;
}

export function say(line: string): void {
  process.stderr.write(`${line}\n`);
}
