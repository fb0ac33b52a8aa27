import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Command } from 'commander';
import { lastValueFrom, tap } from 'rxjs';
import { endedRunVerdicts } from '../../actors/judging/evaluationRuns.js';
import { judgeEvaluationRun } from '../../actors/judging/judgeEvaluationRun.js';
import { judgeFingerprintOf } from '../../actors/judging/judgeFingerprintOf.js';
import { judgeMany } from '../../actors/judging/judgeMany.js';
import { judgeModeOf, loadJudgeConfig } from '../../config/judgeConfig.js';
import { calibrationAccumulator } from '../../domain/judge/calibration.js';
import type { JudgeContext } from '../../domain/judge/context.js';
import { JudgeLabelsError } from '../../domain/judge/errors.js';
import {
  type HumanLabel,
  LABEL_STATUSES,
  type LabelReferences,
  labelReferences,
  PAIRWISE_TIE,
  parseLabelLine,
} from '../../domain/judge/labels.js';
import { pairwiseCaseWinners } from '../../domain/judge/pairwiseCaseWinner.js';
import { isPanelResult } from '../../domain/judge/panel.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import type { JsonValue } from '../../domain/shared/json.js';
import { DEFAULT_BOOTSTRAP_RESAMPLES } from '../../domain/stats/bootstrap.js';
import type { JudgeStore } from '../../ports/store/judgeStore.js';
import { openJudgeStore } from '../../ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../ports/store/storeUri.js';
import { CliError } from '../errors.js';
import { fileLines, fileSha256, isFileSystemError } from '../fileLines.js';
import { wholeNumberBounds, wholeNumberFlag } from '../wholeNumberFlag.js';
import { calibrationPage } from './calibrationPage.js';
import {
  type CalibrationRow,
  type CalibrationSummary,
  calibrationCells,
  formatCalibration,
} from './calibrationText.js';
import {
  caseContexts,
  commandJudge,
  defaultRunIdOf,
  evaluationRunOf,
  type JudgeCommandOptions,
  openCases,
  scanCases,
} from './judgeCommandIo.js';
import { checkPairwiseOptions } from './pairwiseReport.js';

/** `arena judge`'s options (read from there) and calibrate's own. */
interface CalibrateOptions extends JudgeCommandOptions {
  labels: string;
  html?: string;
  seed: string;
  bootstrap: string;
}

/**
 * Register `arena judge calibrate <cases.jsonl> --labels <labels.jsonl> --config <judge.yaml>`
 * under `arena judge`: judge the labelled cases and measure the judge
 * against people's labels (for a pairwise judge, each case's winner against
 * people's winner); with `--store`, through the verdict cache, and the
 * calibration is stored under the judge's fingerprint for the gates.
 *
 * @example
 * ```sh
 * arena judge calibrate examples/judge/cases.jsonl --labels examples/judge/labels.jsonl --config examples/judge/replay.yaml
 * # calibrated strict@… on 3 labelled cases: 0 errors, 0 unlabelled, 0 unjudged, 1 annotator tie
 * ```
 */
export function registerJudgeCalibrateCommand(judge: Command): void {
  judge
    .command('calibrate')
    .description(
      "measure a judge against people's labels: agreement, Cohen's kappa, confusion matrix",
    )
    .argument('<cases>', 'JSON lines file of the cases, as arena judge reads it')
    .requiredOption(
      '--labels <file>',
      'JSON lines: {"case_id", "status", "score"?, "annotator"?} per line; for a pairwise judge {"case_id", "winner": "<system>"|"tie", "annotator"?}',
    )
    .option('--html <file>', 'write the calibration as a page')
    .option('--seed <n>', 'seed of the bootstrap, 0 to 4294967295', '0')
    .option(
      '--bootstrap <n>',
      "resamples of the kappa's interval, 1 to 1000000",
      String(DEFAULT_BOOTSTRAP_RESAMPLES),
    )
    // --config, --judge, --store, --out, --json and --concurrency are arena judge's own options, read from there
    .action((casesPath: string, _options: unknown, command: Command) =>
      calibrateCommand(casesPath, command.optsWithGlobals<CalibrateOptions>()),
    );
}

async function calibrateCommand(casesPath: string, options: CalibrateOptions): Promise<void> {
  refuseFleetOptions(options);
  const seed = wholeNumberFlag('--seed', options.seed, { least: 0, most: 0xffffffff });
  const bootstrap = wholeNumberFlag('--bootstrap', options.bootstrap, wholeNumberBounds.resamples);
  const concurrency = wholeNumberFlag(
    '--concurrency',
    options.concurrency,
    wholeNumberBounds.judgeConcurrency,
  );
  const { config, baseDir } = loadJudgeConfig(options.config);
  const fingerprint = judgeFingerprintOf(config, options.judge);
  const mode = judgeModeOf(config, options.judge);
  checkPairwiseOptions(config, mode, 1, options.config);
  const file = await openCases(casesPath);
  let store: JudgeStore | null = null;
  try {
    const casesSha256 = await fileSha256(file);
    const defaultRunId = defaultRunIdOf(casesSha256);
    const scan = await scanCases(file, defaultRunId, casesPath, { mode });
    if (scan.malformed > 0) {
      throw new CliError(
        `${casesPath}: ${scan.malformed} malformed lines: calibrate on cases that all read`,
      );
    }
    const cases = await casesOf(caseContexts(file, defaultRunId, casesPath, mode), casesPath);
    const { labels, labelsSha256 } = await readLabels(options.labels, cases, casesPath, mode);
    const people = labelReferences(labels);
    // on the fleet the workers judge: no provider here
    const judge =
      options.nats === undefined ? await commandJudge(config, baseDir, options, concurrency) : null;
    const labelled = async function* (): AsyncGenerator<JudgeContext> {
      for await (const context of caseContexts(file, defaultRunId, casesPath, mode)) {
        if (people.references.has(context.caseId)) yield context;
      }
    };
    const categories = mode === 'pairwise' ? pairwiseCategories(cases, people) : LABEL_STATUSES;
    const overall = calibrationAccumulator({ categories });
    const members = new Map<string, ReturnType<typeof calibrationAccumulator>>();
    const judged = new Set<string>();
    const outLines: string[] = [];
    const winners = pairwiseCaseWinners();
    const fold = (result: JudgeResult): void => {
      const reference = people.references.get(result.caseId);
      if (reference === undefined) return;
      if (options.out !== undefined) outLines.push(JSON.stringify(result));
      if (mode === 'pairwise') {
        const whole = winners.add(result);
        if (whole === null) return;
        judged.add(whole.caseId);
        overall.add({ caseId: whole.caseId, judge: whole.winner, reference: reference.verdict });
        return;
      }
      judged.add(result.caseId);
      const pair = (each: JudgeResult) => ({
        caseId: each.caseId,
        judge: each.status === 'error' ? null : each.status,
        reference: reference.verdict,
        judgeScore: each.score,
        referenceScore: reference.score,
      });
      overall.add(pair(result));
      if (isPanelResult(result)) {
        for (const member of result.panel.members) {
          let accumulator = members.get(member.judge);
          if (accumulator === undefined) {
            accumulator = calibrationAccumulator({ categories });
            members.set(member.judge, accumulator);
          }
          accumulator.add(pair({ ...member, caseId: result.caseId }));
        }
      }
    };
    const storeUri =
      options.store ?? (options.nats !== undefined ? process.env.ARENA_STORE : undefined);
    if (options.nats !== undefined) {
      const { judgeOnFleetCommand } = await import('./judgeFleet.js');
      const { maxInFlight, ...rest } = options;
      await judgeOnFleetCommand(
        casesPath,
        {
          ...rest,
          wait: true,
          ...(maxInFlight !== undefined ? { maxInFlight: Number(maxInFlight) } : {}),
        },
        {
          keep: (caseId) => people.references.has(caseId),
          finish: async (fleetStore, ended) => {
            for await (const verdict of endedRunVerdicts(fleetStore, ended)) fold(verdict.result);
          },
        },
      );
      store = await openJudgeStore(parseStoreUri(storeUri!));
    } else if (options.store !== undefined && judge !== null) {
      store = await openJudgeStore(parseStoreUri(options.store));
      await judgeEvaluationRun(labelled(), {
        store,
        judge,
        concurrency,
        malformedLines: 0,
        run: evaluationRunOf(
          judge.settings.name,
          { config, baseDir },
          casesPath,
          casesSha256,
          true,
        ),
        onJudged: (outcome) => {
          if (outcome.result !== null) fold(outcome.result);
        },
      });
    } else if (judge !== null) {
      await lastValueFrom(judgeMany(labelled(), judge, { concurrency }).pipe(tap(fold)), {
        defaultValue: null,
      });
    }
    if (options.out !== undefined)
      writeFileSync(options.out, outLines.map((line) => `${line}\n`).join(''));
    const rowOf = (
      accumulator: ReturnType<typeof calibrationAccumulator>,
      name: string,
    ): CalibrationRow => {
      const print = judgeFingerprintOf(config, name);
      return {
        judge: print.label,
        fingerprint: print.digest,
        ...calibrationCells(accumulator.figures({ seed, bootstrap }), 'single'),
      };
    };
    const summary: CalibrationSummary = {
      judge: fingerprint.label,
      fingerprint: fingerprint.digest,
      ...calibrationCells(overall.figures({ seed, bootstrap }), mode),
      unlabelled: [...cases.keys()].filter(
        (id) => !people.references.has(id) && !people.annotatorTies.includes(id),
      ).length,
      unjudged: [...people.references.keys()].filter((id) => !judged.has(id)).length,
      annotatorTies: people.annotatorTies,
      annotators: people.annotators,
      annotatorKappa: people.annotatorKappa,
      labelsSha256,
      members: [...members].map(([name, accumulator]) => rowOf(accumulator, name)),
    };
    if (store !== null) {
      await store.recordCalibration({
        fingerprint: fingerprint.digest,
        fingerprintParts: fingerprint.parts as unknown as JsonValue,
        judgeName: fingerprint.judgeName,
        labelsSha256,
        n: summary.n,
        kappa: summary.kappa,
        kappaCi: summary.kappaCi,
        falsePassRate: summary.mode === 'single' ? summary.falsePassRate : null,
        confusion: summary.confusion as unknown as JsonValue,
      });
    }
    if (options.html !== undefined) writeFileSync(options.html, calibrationPage(summary));
    process.stdout.write(
      options.json === true ? `${JSON.stringify(summary)}\n` : formatCalibration(summary),
    );
    if (store !== null && options.json !== true) {
      process.stdout.write(`stored: the calibration of ${fingerprint.label}\n`);
    }
  } finally {
    await file.close().catch(() => undefined);
    await store?.close();
  }
}

/** Every label of the file, each line checked, a label of a case the cases file lacks refused. */
async function readLabels(
  labelsPath: string,
  cases: CaseSystems,
  casesPath: string,
  mode: 'single' | 'pairwise',
): Promise<{ labels: HumanLabel[]; labelsSha256: string }> {
  const file = await open(labelsPath).catch((error: unknown) => {
    throw new CliError(`cannot read labels file ${labelsPath}`, 2, { cause: error });
  });
  try {
    const labels: HumanLabel[] = [];
    let line = 0;
    try {
      for await (const text of fileLines(file)) {
        line++;
        if (text.trim() === '') continue;
        const label = parseLabelLine(text, labelsPath, line, mode);
        const systems = cases.get(label.caseId);
        if (systems === undefined) {
          throw new JudgeLabelsError(
            `${labelsPath}:${line}: case_id: ${JSON.stringify(label.caseId)} is not a case of ${casesPath}`,
          );
        }
        if (
          mode === 'pairwise' &&
          label.verdict !== PAIRWISE_TIE &&
          !systems.includes(label.verdict)
        ) {
          throw new JudgeLabelsError(
            `${labelsPath}:${line}: winner: ${JSON.stringify(label.verdict)} is not a candidate of case ${JSON.stringify(label.caseId)} (its candidates: ${systems.join(', ')}; or "tie")`,
          );
        }
        labels.push(label);
      }
    } catch (error) {
      if (isFileSystemError(error)) {
        throw new CliError(`cannot read labels file ${labelsPath}`, 2, { cause: error });
      }
      throw error;
    }
    if (labels.length === 0) throw new JudgeLabelsError(`${labelsPath}: no labels`);
    return { labels, labelsSha256: await fileSha256(file) };
  } finally {
    await file.close().catch(() => undefined);
  }
}

/** Each case id of the cases file with its systems, sorted (none for a single judge's case). */
type CaseSystems = ReadonlyMap<string, readonly string[]>;

/**
 * The cases of the file and their systems; a system named `tie` is refused
 * (exit 2): a label or a verdict could not tell it from a tie.
 */
async function casesOf(
  contexts: AsyncIterable<JudgeContext>,
  casesPath: string,
): Promise<CaseSystems> {
  const cases = new Map<string, string[]>();
  for await (const context of contexts) {
    let systems = cases.get(context.caseId);
    if (systems === undefined) {
      systems = [];
      cases.set(context.caseId, systems);
    }
    const first = context.pairwise?.first;
    if (first === undefined || systems.includes(first)) continue;
    if (first === PAIRWISE_TIE) {
      throw new CliError(
        `${casesPath}: case ${JSON.stringify(context.caseId)}: candidates.${PAIRWISE_TIE}: a system named "${PAIRWISE_TIE}" cannot be told from a tie when calibrating: rename it`,
      );
    }
    systems.push(first);
  }
  for (const systems of cases.values()) systems.sort();
  return cases;
}

/** The categories of a pairwise calibration: every system of the labelled cases, sorted, then `tie`. */
function pairwiseCategories(cases: CaseSystems, people: LabelReferences): string[] {
  const systems = new Set<string>();
  for (const caseId of people.references.keys()) {
    for (const system of cases.get(caseId) ?? []) systems.add(system);
  }
  return [...[...systems].sort(), PAIRWISE_TIE];
}

/**
 * Options of `arena judge` that calibrate does not take, refused (exit 2)
 * rather than ignored: a calibration judges each case once.
 */
function refuseFleetOptions(options: CalibrateOptions): void {
  const given = [
    options.trials !== undefined && options.trials !== '1' ? '--trials' : null,
    options.reduce !== undefined ? '--reduce' : null,
  ].filter((flag) => flag !== null);
  if (given.length === 0) return;
  throw new CliError(
    `arena judge calibrate judges each labelled case once: ${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} not taken`,
  );
}
