import type { InspectionEvent, Observer } from 'xstate';
import { EvaluationRunFailedError } from '../../actors/judging/evaluationRunErrors.js';
import { judgeCaseIntoStore } from '../../actors/judging/judgeCase.js';
import {
  AHEAD_FACTOR,
  type FoldedResult,
  judgeInDrawOrder,
} from '../../actors/judging/judgeInDrawOrder.js';
import type { Judge } from '../../actors/judging/judges.js';
import { judgeModeOf, loadJudgeConfig, selectJudgeName } from '../../config/judgeConfig.js';
import { sequentialGateSpecs } from '../../config/sequentialGateConfig.js';
import {
  foldSequentialGates,
  type SequentialGateState,
} from '../../domain/judge/sequentialGate.js';
import type { JudgeQueue } from '../../ports/queue/judgeQueue.js';
import { isServerFailure } from '../../ports/runtime/serverFailure.js';
import { caseKeyOf, type JudgeStore, type StoredCase } from '../../ports/store/judgeStore.js';
import { openJudgeStore } from '../../ports/store/judgeStoreUri.js';
import { CliError, ExitCode } from '../errors.js';
import { fileSha256 } from '../fileLines.js';
import { createProgressBar } from '../progress.js';
import {
  commandJudge,
  defaultRunIdOf,
  type JudgeCommandOptions,
  openCases,
} from './judgeCommandIo.js';
import {
  cliErrorOf,
  finishStoredRun,
  patientQueue,
  patientStore,
  say,
  storeLocationOf,
} from './judgeFleet.js';
import { natsTargetOf } from './natsTarget.js';
import { checkPairwiseOptions } from './pairwiseReport.js';
import { openJudgeQueue } from './runQueueOpen.js';
import {
  type DrawnCases,
  drawnCases,
  gateRecordOf,
  latestStateSaver,
  openSequentialRun,
  type SequentialRun,
  sequentialReport,
  wealthProgress,
} from './sequentialRun.js';

/** What `arena judge` hands the stored sequential gate. */
export type SequentialStoredOptions = Omit<
  JudgeCommandOptions,
  'concurrency' | 'seed' | 'maxInFlight'
> & {
  readonly concurrency: number;
  readonly seed?: number;
  readonly maxInFlight?: number;
  /** Judge on the fleet (`--nats`, `--wait`, `--max-in-flight`), not in this process. */
  readonly fleet: boolean;
  /** XState's `inspect` for each case's judge actor in this process (`--view`). */
  readonly inspect?: Observer<InspectionEvent>;
};

/** Who judges: this process's judge, or the workers of a fleet through its queue. */
type Judging = { readonly judge: Judge } | { readonly queue: JudgeQueue };

/** How often the fleet's submitter reads the verdicts that landed. */
const fleetPollMs = 100;

/**
 * `arena judge` with `gates.sequential` and a store: the run, its draw order
 * and the gates' fold state are kept in the store, saved after each fold, so
 * `--resume <id>` continues the same order from the same wealth and reaches
 * the same decision at the same case as one uninterrupted process. In this
 * process (`--store`), cases are judged into the store as `arena judge
 * --store` judges them (the verdict cache too); on the fleet (`--nats`), the
 * submitter queues cases in draw order at most `AHEAD_FACTOR` times
 * `--concurrency` past the fold, folds the workers' verdicts in draw order as
 * they land, and on the decision ends the run and withdraws what is queued.
 * A decided run is not judged further. Ctrl-C leaves the run to resume (exit 130).
 */
export async function judgeSequentiallyStoredCommand(
  casesPath: string,
  options: SequentialStoredOptions,
): Promise<void> {
  const { config, baseDir } = loadJudgeConfig(options.config);
  // on the fleet the workers judge: the submitter needs the judge's name, not its model or keys
  const judge = options.fleet
    ? null
    : await commandJudge(config, baseDir, options, options.concurrency, options.inspect);
  const judgeName = judge?.settings.name ?? selectJudgeName(config, options.judge);
  checkPairwiseOptions(config, judgeModeOf(config, options.judge), 1, options.config);
  const gates = sequentialGateSpecs(config, judgeName, options.config);
  // the caller judges here only a config with gates.sequential
  if (gates === null) throw new CliError(`${options.config} has no gates.sequential`);
  const location = storeLocationOf(options.store, options.fleet ? '--nats' : '--store');
  const file = await openCases(casesPath);
  const stop = new AbortController();
  let store: JudgeStore | null = null;
  let queue: JudgeQueue | null = null;
  try {
    const casesSha256 = await fileSha256(file);
    const defaultRunId = options.runId ?? defaultRunIdOf(casesSha256);
    const drawn = await drawnCases(file, casesPath, defaultRunId);
    if (options.fleet) {
      queue = patientQueue(
        await openJudgeQueue(natsTargetOf(options), {
          ...(options.maxInFlight !== undefined ? { maxInFlight: options.maxInFlight } : {}),
        }),
      );
    }
    store = patientStore(await openJudgeStore(location), stop.signal);
    const sequential = await openSequentialRun(store, {
      judgeName,
      config,
      baseDir,
      casesPath,
      casesSha256,
      cache: options.cache,
      cases: drawn.scan.cases,
      gates,
      seed: options.seed,
      defaultRunId,
      resume: options.resume,
    });
    const id = sequential.run.evaluationRunId;
    say(startLine(id, sequential.state, options.resume !== undefined));
    const judging: Judging = queue !== null ? { queue } : { judge: judge! };
    const state = await foldToDecision(store, judging, sequential, drawn, options, stop);
    // the decision is recorded, then the run ends: no worker judges a case of it after this
    const judgedAtDecision = await store.verdictCount(id);
    await store.saveSequentialGate(gateRecordOf(id, sequential.order, state, judgedAtDecision));
    const ended = await store.setCasesTotal(id, judgedAtDecision, drawn.scan.malformed);
    if (queue !== null) {
      queue.announceCancel(id);
      await queue.purge(id).catch(() => undefined);
    }
    // a verdict that committed as the run ended was paid for too: counted once nothing more can land
    const judged = await store.verdictCount(id);
    const report = sequentialReport(state, judged, config);
    await finishStoredRun(store, ended, report.config, options, report.report);
  } finally {
    await file.close().catch(() => undefined);
    await queue?.close();
    await store?.close();
  }
}

/** What the run says as it starts: its id, where its fold is, and how to resume it. */
function startLine(id: string, state: SequentialGateState, resumed: boolean): string {
  if (state.decidedAt !== null) {
    return `evaluation run ${id}: decided at case ${state.decidedAt} of ${state.total} in draw order (seed ${state.seed}): nothing more is judged`;
  }
  if (resumed) {
    return `evaluation run ${id}: resumed after case ${state.folded} of ${state.total} in draw order (seed ${state.seed})`;
  }
  return `evaluation run ${id}: ${state.total} cases drawn with seed ${state.seed} (resume with --resume ${id})`;
}

/**
 * Fold the run's verdicts in draw order from where its state is until the
 * gates decide, judging here or on the fleet; the state is saved after each
 * fold. Ctrl-C stops it (the run stays running, to resume) with exit 130.
 */
async function foldToDecision(
  store: JudgeStore,
  judging: Judging,
  sequential: SequentialRun,
  drawn: DrawnCases,
  options: SequentialStoredOptions,
  stop: AbortController,
): Promise<SequentialGateState> {
  if (sequential.state.decision !== null) return sequential.state;
  const id = sequential.run.evaluationRunId;
  let state = sequential.state;
  let judgedHere = 0;
  const saver = latestStateSaver((folded) =>
    store.saveSequentialGate(
      gateRecordOf(id, sequential.order, folded, sequential.known.size + judgedHere),
    ),
  );
  const bar = createProgressBar({
    total: state.total,
    label: 'judging',
    stream: process.stderr,
  });
  const fold = (result: FoldedResult): SequentialGateState => {
    state = foldSequentialGates(state, result);
    saver.push(state);
    bar.update(state.folded, wealthProgress(state));
    return state;
  };
  const onInterrupt = (): void =>
    stop.abort(
      new CliError(
        `interrupted: judgements in flight were cancelled; evaluation run ${id} goes on with --resume ${id}`,
        ExitCode.cancelled,
      ),
    );
  process.once('SIGINT', onInterrupt);
  try {
    const aheadLimit = AHEAD_FACTOR * options.concurrency;
    if ('queue' in judging) {
      await foldFromFleet(store, judging.queue, sequential, drawn, {
        aheadLimit,
        signal: stop.signal,
        fold,
      });
    } else {
      await judgeInDrawOrder<FoldedResult>(
        async (context, signal) => {
          const known = sequential.known.get(caseKeyOf(context));
          if (known !== undefined) return known;
          const outcome = await judgeCaseIntoStore(context, {
            store,
            evaluationRunId: id,
            judge: judging.judge,
            cache: sequential.run.cache,
            worker: null,
            signal,
            mayHaveVerdict: false,
          });
          if (outcome.recording !== 'recorded' || outcome.result === null) {
            throw new CliError(
              `evaluation run ${id} took no verdict of case ${context.caseId} (${outcome.recording}): is another process judging it?`,
            );
          }
          judgedHere++;
          return outcome.result;
        },
        {
          order: sequential.order,
          caseAt: drawn.caseAt,
          concurrency: options.concurrency,
          aheadLimit,
          signal: stop.signal,
          fold: (result) => fold(result).decision !== null,
        },
        state.folded,
      );
    }
  } catch (error) {
    await saver.flush().catch(() => undefined);
    if (!isServerFailure(error) && !(error instanceof CliError)) {
      await store.failEvaluationRun(id, (error as Error).message ?? String(error)).catch(() => {});
    }
    cliErrorOf(error);
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    bar.finish();
  }
  await saver.flush();
  return state;
}

/**
 * The fleet's side of the gate: queue the cases in draw order, never more
 * than `aheadLimit` draws past the fold (each kept in the store first, so a
 * lost queue is rebuilt from it), read the verdicts the workers record, and
 * fold them in draw order until the gates decide.
 */
async function foldFromFleet(
  store: JudgeStore,
  queue: JudgeQueue,
  sequential: SequentialRun,
  drawn: DrawnCases,
  options: {
    readonly aheadLimit: number;
    readonly signal: AbortSignal;
    readonly fold: (result: FoldedResult) => SequentialGateState;
  },
): Promise<void> {
  const id = sequential.run.evaluationRunId;
  const { order, known } = sequential;
  // draw index -> case key, for the cases queued (or judged) and not yet folded
  const drawnKeys = new Map<number, string>();
  let state = sequential.state;
  let queuedTo = state.folded;
  let afterSeq = sequential.lastSeq;
  for (;;) {
    if (options.signal.aborted) throw options.signal.reason;
    const batch: StoredCase[] = [];
    for (; queuedTo < state.total && queuedTo < state.folded + options.aheadLimit; queuedTo++) {
      const context = await drawn.caseAt(order[queuedTo]!);
      const caseKey = caseKeyOf(context);
      drawnKeys.set(queuedTo, caseKey);
      if (!known.has(caseKey)) batch.push({ caseKey, context });
    }
    if (batch.length > 0) {
      await store.recordCases(id, batch);
      const jobs = batch.map(({ caseKey }) => ({ evaluationRunId: id, caseKey }));
      // several cases a message where the queue takes them: the fleet's cap counts them so
      await (queue.submitCases?.(jobs) ?? Promise.all(jobs.map((job) => queue.submit(job))));
    }
    let folded = false;
    for (;;) {
      const caseKey = drawnKeys.get(state.folded);
      const result = caseKey === undefined ? undefined : known.get(caseKey);
      if (caseKey === undefined || result === undefined) break;
      drawnKeys.delete(state.folded);
      known.delete(caseKey);
      state = options.fold(result);
      folded = true;
      if (state.decision !== null) return;
    }
    if (folded) continue;
    const page = await store.verdicts(id, { afterSeq, limit: 1000 });
    for (const verdict of page) {
      known.set(verdict.caseKey, { status: verdict.result.status, score: verdict.result.score });
      afterSeq = verdict.seq;
    }
    if (page.length > 0) continue;
    const run = await store.getEvaluationRun(id);
    if (run.status === 'failed') throw new EvaluationRunFailedError(id, run.error);
    if (run.status !== 'running') {
      throw new CliError(`evaluation run ${id} is ${run.status}: its gate can decide no more`);
    }
    await pause(fleetPollMs, options.signal);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
