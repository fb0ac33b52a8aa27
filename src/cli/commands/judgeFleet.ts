import { createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import {
  cancelEvaluationRun,
  followEvaluationRun,
  storedVerdicts,
  submitEvaluationRun,
} from '../../actors/judging/evaluationRuns.js';
import { judgeFromConfig } from '../../actors/judging/judgeFromConfig.js';
import { judgeIntoStore } from '../../actors/judging/judgeIntoStore.js';
import { type JudgeConfig, loadJudgeConfig, selectJudgeName } from '../../config/judgeConfig.js';
import { type CaseLineOutcome, parseCaseLine } from '../../domain/judge/cases.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import { judgeSummaryAccumulator } from '../../domain/judge/summary.js';
import type { JsonValue } from '../../domain/shared/json.js';
import type { JudgeQueue } from '../../ports/judgeQueue.js';
import type { EvaluationRunRecord, JudgeStore } from '../../ports/judgeStore.js';
import { openJudgeStore } from '../../ports/judgeStoreUri.js';
import { createLogger } from '../../ports/logger.js';
import { parseStoreUri } from '../../ports/storeUri.js';
import { CliError, ExitCode } from '../errors.js';
import { fileLines, fileSha256, isFileSystemError } from '../fileLines.js';
import { createProgressBar } from '../progress.js';
import { type JudgeCommandOptions, readCases, reportJudgeRun } from './judge.js';
import { agreementReport } from './judgePanelReport.js';
import { natsUrlOf, openJudgeQueue } from './runQueueOpen.js';

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
export async function judgeOnFleet(
  casesPath: string,
  options: Omit<JudgeCommandOptions, 'maxInFlight'> & { readonly maxInFlight?: number },
): Promise<void> {
  const { config, baseDir } = loadJudgeConfig(options.config);
  const judgeName = selectJudgeName(config, options.judge);
  const url = natsUrlOf(options.nats);
  const location = storeLocationOf(options.store, '--nats');
  const file = await openCases(casesPath);
  const stop = new AbortController();
  const onInterrupt = (): void => stop.abort();
  process.once('SIGINT', onInterrupt);
  let queue: JudgeQueue | null = null;
  let store: JudgeStore | null = null;
  try {
    const casesSha256 = await fileSha256(file);
    const defaultRunId = options.runId ?? `judge-${casesSha256.slice(0, 12)}`;
    queue = await openJudgeQueue(url, {
      ...(options.maxInFlight !== undefined ? { maxInFlight: options.maxInFlight } : {}),
    });
    const opened = await openJudgeStore(location);
    store = opened;
    const lines = caseLines(file, defaultRunId, casesPath);
    let malformed = 0;
    // a long file takes a while to queue: a bar over its non-blank lines (read once more, streamed)
    const queueing = createProgressBar({
      total: Math.max(1, await nonBlankLines(file)),
      label: 'queueing',
      stream: process.stderr,
    });
    const { run, duplicates } = await submitEvaluationRun(lines, {
      store: opened,
      queue,
      run: {
        judgeName,
        judgeConfig: config as unknown as JsonValue,
        configDir: baseDir,
        casesFile: path.resolve(casesPath),
        casesSha256,
        cache: options.cache,
      },
      onMalformed: (problem) => {
        malformed++;
        say(`arena: ${casesPath} line ${problem.line}: ${problem.message}`);
      },
      onQueued: (queued) => queueing.update(queued + malformed),
    }).finally(() => queueing.finish());
    say(
      `queued ${run.casesTotal} cases as evaluation run ${run.evaluationRunId}${duplicates > 0 ? ` (${duplicates} duplicate lines judged once)` : ''}`,
    );
    if (stop.signal.aborted) {
      await cancelEvaluationRun(opened, run.evaluationRunId, queue);
      throw cancelled(run.evaluationRunId);
    }
    if (options.wait !== true) {
      process.stdout.write(`${run.evaluationRunId}\n`);
      if (malformed > 0) process.exitCode = ExitCode.badInput;
      return;
    }
    const ended = await follow(opened, run, stop.signal);
    if (ended.status === 'running') {
      await cancelEvaluationRun(opened, run.evaluationRunId, queue);
      throw cancelled(run.evaluationRunId);
    }
    await finishStoredRun(opened, ended, config, options);
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    await file.close().catch(() => undefined);
    await queue?.close();
    await store?.close();
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
export async function judgeIntoStoreHere(
  casesPath: string,
  options: Omit<JudgeCommandOptions, 'concurrency'> & { readonly concurrency: number },
): Promise<void> {
  const { config, baseDir } = loadJudgeConfig(options.config);
  const logger = createLogger({ level: options.logLevel, json: options.json === true });
  const judge = await judgeFromConfig(config, {
    baseDir,
    logger,
    maxConnections: options.concurrency,
    ...(options.judge ? { name: options.judge } : {}),
  });
  const location = storeLocationOf(options.store, '--store');
  const { cases, malformed } = await readCases(casesPath, options.runId);
  for (const problem of malformed) {
    say(`arena: ${casesPath} line ${problem.line}: ${problem.message}`);
  }
  const file = await openCases(casesPath);
  const casesSha256 = await fileSha256(file).finally(() => file.close());
  const store = await openJudgeStore(location);
  try {
    const run = await store.createEvaluationRun({
      judgeName: judge.settings.name,
      judgeConfig: config as unknown as JsonValue,
      configDir: baseDir,
      casesFile: path.resolve(casesPath),
      casesSha256,
      cache: options.cache,
    });
    const { evaluationRunId } = run;
    const bar = createProgressBar({
      total: cases.length,
      label: 'judging',
      stream: process.stderr,
    });
    let done = 0;
    const outcome = await new Promise<'done' | 'interrupted'>((resolve, reject) => {
      const subscription = judgeIntoStore(cases, {
        store,
        evaluationRunId,
        judge,
        cache: options.cache,
        worker: null,
        concurrency: options.concurrency,
      }).subscribe({
        next: () => bar.update(++done),
        error: (error: unknown) => settle(() => reject(error)),
        complete: () => settle(() => resolve('done')),
      });
      const onInterrupt = (): void =>
        settle(() => {
          // unsubscribing cancels the judgements in flight: none is recorded after the cancel
          subscription.unsubscribe();
          resolve('interrupted');
        });
      const settle = (then: () => void): void => {
        process.removeListener('SIGINT', onInterrupt);
        bar.finish();
        then();
      };
      process.once('SIGINT', onInterrupt);
    }).catch(async (error: unknown) => {
      await store.failEvaluationRun(evaluationRunId, messageOf(error)).catch(() => undefined);
      throw error;
    });
    if (outcome === 'interrupted') {
      await cancelEvaluationRun(store, evaluationRunId);
      throw cancelled(evaluationRunId);
    }
    // duplicate lines share one verdict: the run holds as many cases as it has verdicts
    const ended = await store.setCasesTotal(
      evaluationRunId,
      await store.verdictCount(evaluationRunId),
      malformed.length,
    );
    await finishStoredRun(store, ended, config, options);
  } finally {
    await store.close();
  }
}

/** Write a finished run's verdicts (`--out`, else stdout) and report its summary and gates. */
async function finishStoredRun(
  store: JudgeStore,
  run: EvaluationRunRecord,
  config: JudgeConfig,
  options: Pick<JudgeCommandOptions, 'json' | 'out'>,
): Promise<void> {
  if (run.status === 'cancelled') throw cancelled(run.evaluationRunId);
  if (run.status === 'failed') {
    throw new CliError(
      `evaluation run ${run.evaluationRunId} failed: ${run.error ?? 'no reason recorded'}`,
      ExitCode.badInput,
    );
  }
  const out: WriteStream | NodeJS.WriteStream = options.out
    ? createWriteStream(options.out)
    : process.stdout;
  const summary = judgeSummaryAccumulator();
  // a panel's agreement is over all its results: kept only when there is one to measure
  const kept: JudgeResult[] | null =
    run.judgeName in (config.panels ?? {}) || config.gates.min_agreement !== undefined ? [] : null;
  let fromCache = 0;
  for await (const verdict of storedVerdicts(store, run.evaluationRunId)) {
    summary.add(verdict.result);
    kept?.push(verdict.result);
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
  const agreement = agreementReport(kept ?? [], {
    trials: 1,
    minAgreement: config.gates.min_agreement,
  });
  reportJudgeRun(run.judgeName, summary.summary(), run.malformedLines, config, options, agreement, {
    evaluationRunId: run.evaluationRunId,
    fromCache,
  });
}

/** Follow a run with one progress bar over every worker's verdicts. */
async function follow(
  store: JudgeStore,
  run: EvaluationRunRecord,
  signal: AbortSignal,
): Promise<EvaluationRunRecord> {
  const bar = createProgressBar({
    total: Math.max(1, run.casesTotal ?? 1),
    label: 'judging',
    stream: process.stderr,
  });
  try {
    return await followEvaluationRun(store, run.evaluationRunId, {
      signal,
      onProgress: (done) => bar.update(done),
    });
  } finally {
    bar.finish();
  }
}

/** How many lines of the file hold something (a case or a malformed line). */
async function nonBlankLines(file: Awaited<ReturnType<typeof open>>): Promise<number> {
  let count = 0;
  for await (const text of fileLines(file)) if (text.trim() !== '') count++;
  return count;
}

/** The cases file's lines as they are read, each parsed; the file is never held whole. */
async function* caseLines(
  file: Awaited<ReturnType<typeof open>>,
  defaultRunId: string,
  casesPath: string,
): AsyncGenerator<CaseLineOutcome> {
  let line = 0;
  try {
    for await (const text of fileLines(file)) {
      line += 1;
      yield parseCaseLine(text, line, defaultRunId);
    }
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw new CliError(`cannot read cases file ${casesPath}`, ExitCode.badInput, { cause: error });
  }
}

function storeLocationOf(option: string | undefined, needs: string) {
  const given = option ?? process.env.ARENA_STORE;
  if (given === undefined || given.trim() === '') {
    throw new CliError(
      `${needs} needs --store <uri> (or ARENA_STORE): the store every worker records verdicts in, e.g. postgres://arena@db-host/arena`,
    );
  }
  return parseStoreUri(given);
}

async function openCases(casesPath: string) {
  return open(casesPath).catch((error: unknown) => {
    throw new CliError(`cannot read cases file ${casesPath}`, ExitCode.badInput, { cause: error });
  });
}

function cancelled(evaluationRunId: string): CliError {
  return new CliError(
    `interrupted: evaluation run ${evaluationRunId} cancelled; no cancelled case became a verdict`,
    ExitCode.cancelled,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}
