import { createWriteStream, type WriteStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { AHEAD_FACTOR, judgeInDrawOrder } from '../../actors/judging/judgeInDrawOrder.js';
import type { Judge } from '../../actors/judging/judges.js';
import type { JudgeConfig } from '../../config/judgeConfig.js';
import {
  foldSequentialGates,
  type SequentialGateSpec,
  type SequentialGateState,
  sequentialGates,
} from '../../domain/judge/sequentialGate.js';
import { judgeSummaryAccumulator } from '../../domain/judge/summary.js';
import { drawOrder, drawSeedOf } from '../../domain/stats/drawOrder.js';
import { CliError, ExitCode } from '../errors.js';
import { fileSha256 } from '../fileLines.js';
import { createProgressBar } from '../progress.js';
import { withCalibration } from './calibrationGate.js';
import { defaultRunIdOf, type JudgeCommandOptions, reportJudgeRun } from './judgeCommandIo.js';
import { agreementReporter } from './judgePanelReport.js';
import { drawnCases, sequentialReport, wealthProgress } from './sequentialRun.js';

/** What `--seed` may be: an integer in [0, 2^32). */
export function parseDrawSeed(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seed = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new CliError(`--seed must be an integer from 0 to 4294967295, got '${text}'`);
  }
  return seed;
}

/**
 * `arena judge` with `gates.sequential`: the cases in a seeded random order,
 * judged at most `concurrency` at once and at most `AHEAD_FACTOR` times that
 * past the fold, the results folded in draw order into the betting gates, and
 * the judging stopped (what is in flight cancelled) once the gates decide.
 * Every result judged goes to `--out` and into the summary; the gates decide
 * `min_pass_rate` and `min_mean_score`, `max_errors` still applies.
 */
export async function judgeSequentially(
  file: FileHandle,
  casesPath: string,
  judge: Judge,
  config: JudgeConfig,
  gates: { readonly alpha: number; readonly specs: readonly SequentialGateSpec[] },
  options: Omit<JudgeCommandOptions, 'concurrency' | 'seed'> & {
    readonly concurrency: number;
    readonly seed?: number;
  },
): Promise<void> {
  const defaultRunId = options.runId ?? defaultRunIdOf(await fileSha256(file));
  const { scan, caseAt } = await drawnCases(file, casesPath, defaultRunId);
  const seed = options.seed ?? drawSeedOf(defaultRunId);
  // the order is fixed before the first case is judged
  const order = drawOrder(scan.cases, seed);
  let state: SequentialGateState = sequentialGates(gates.specs, {
    alpha: gates.alpha,
    total: scan.cases,
    seed,
  });
  const summary = judgeSummaryAccumulator();
  // a panel's agreement (and its min_agreement gate) over every judgement made, as without the gate
  const agreement = agreementReporter({ trials: 1, minAgreement: config.gates.min_agreement });
  const out: WriteStream | NodeJS.WriteStream = options.out
    ? createWriteStream(options.out)
    : process.stdout;
  const bar = createProgressBar({ total: scan.cases, label: 'judging', stream: process.stderr });
  const interrupt = new AbortController();
  const onInterrupt = (): void =>
    interrupt.abort(
      new CliError('interrupted: judgements in flight were cancelled', ExitCode.cancelled),
    );
  process.once('SIGINT', onInterrupt);
  let outcome: { judged: number };
  try {
    outcome = await judgeInDrawOrder(judge, {
      order,
      caseAt,
      concurrency: options.concurrency,
      aheadLimit: AHEAD_FACTOR * options.concurrency,
      signal: interrupt.signal,
      onJudged: (result) => {
        summary.add(result);
        agreement.add(result);
        out.write(`${JSON.stringify(result)}\n`);
      },
      fold: (result) => {
        state = foldSequentialGates(state, result);
        bar.update(state.folded, wealthProgress(state));
        return state.decision !== null;
      },
    });
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    bar.finish();
    if (out !== process.stdout)
      await new Promise<void>((resolve) => (out as WriteStream).end(resolve));
  }
  const sequential = sequentialReport(state, outcome.judged, config);
  reportJudgeRun(
    judge.settings.name,
    summary.summary(),
    scan.malformed,
    sequential.config,
    options,
    withCalibration(agreement.report(), sequential.report),
  );
}
