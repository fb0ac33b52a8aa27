import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { lastValueFrom, tap } from 'rxjs';
import { judgeEvaluationRun } from '../../actors/judging/judgeEvaluationRun.js';
import { judgeFingerprintOf } from '../../actors/judging/judgeFingerprintOf.js';
import { judgeMany } from '../../actors/judging/judgeMany.js';
import { loadJudgeConfig } from '../../config/judgeConfig.js';
import { calibrationAccumulator } from '../../domain/judge/calibration.js';
import type { JudgeContext } from '../../domain/judge/context.js';
import { JudgeLabelsError } from '../../domain/judge/errors.js';
import {
  type HumanLabel,
  LABEL_STATUSES,
  labelReferences,
  parseLabelLine,
} from '../../domain/judge/labels.js';
import { isPanelResult } from '../../domain/judge/panel.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import type { JsonValue } from '../../domain/shared/json.js';
import { DEFAULT_BOOTSTRAP_RESAMPLES } from '../../domain/stats/bootstrap.js';
import type { LogLevel } from '../../ports/runtime/logger.js';
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
  formatCalibration,
} from './calibrationText.js';
import {
  caseContexts,
  commandJudge,
  defaultRunIdOf,
  openCases,
  scanCases,
} from './judgeCommandIo.js';

interface CalibrateOptions {
  logLevel: LogLevel;
  labels: string;
  config: string;
  judge?: string;
  store?: string;
  out?: string;
  json?: boolean;
  html?: string;
  seed: string;
  bootstrap: string;
  concurrency: string;
}

/**
 * Register `arena judge calibrate <cases.jsonl> --labels <labels.jsonl> --config <judge.yaml>`
 * under `arena judge`: judge the labelled cases and measure the judge
 * against people's labels; with `--store`, through the verdict cache, and the
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
      'JSON lines: {"case_id", "status", "score"?, "annotator"?} per line',
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
  const seed = wholeNumberFlag('--seed', options.seed, { least: 0, most: 0xffffffff });
  const bootstrap = wholeNumberFlag('--bootstrap', options.bootstrap, wholeNumberBounds.resamples);
  const concurrency = wholeNumberFlag(
    '--concurrency',
    options.concurrency,
    wholeNumberBounds.judgeConcurrency,
  );
  const { config, baseDir } = loadJudgeConfig(options.config);
  const fingerprint = judgeFingerprintOf(config, options.judge);
  const file = await openCases(casesPath);
  let store: JudgeStore | null = null;
  try {
    const casesSha256 = await fileSha256(file);
    const defaultRunId = defaultRunIdOf(casesSha256);
    const scan = await scanCases(file, defaultRunId, casesPath);
    if (scan.malformed > 0) {
      throw new CliError(
        `${casesPath}: ${scan.malformed} malformed lines: calibrate on cases that all read`,
      );
    }
    const caseIds = new Set<string>();
    for await (const context of caseContexts(file, defaultRunId, casesPath))
      caseIds.add(context.caseId);
    const { labels, labelsSha256 } = await readLabels(options.labels, caseIds, casesPath);
    const people = labelReferences(labels);
    const judge = await commandJudge(config, baseDir, options, concurrency);
    const labelled = async function* (): AsyncGenerator<JudgeContext> {
      for await (const context of caseContexts(file, defaultRunId, casesPath)) {
        if (people.references.has(context.caseId)) yield context;
      }
    };
    const categories = [...LABEL_STATUSES];
    const overall = calibrationAccumulator({ categories });
    const members = new Map<string, ReturnType<typeof calibrationAccumulator>>();
    const judged = new Set<string>();
    const outLines: string[] = [];
    const fold = (result: JudgeResult): void => {
      const reference = people.references.get(result.caseId);
      if (reference === undefined) return;
      judged.add(result.caseId);
      if (options.out !== undefined) outLines.push(JSON.stringify(result));
      const pair = (each: JudgeResult) => ({
        caseId: each.caseId,
        judge: each.status === 'error' ? null : each.status,
        reference: reference.status,
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
    if (options.store !== undefined) {
      store = await openJudgeStore(parseStoreUri(options.store));
      await judgeEvaluationRun(labelled(), {
        store,
        judge,
        concurrency,
        malformedLines: 0,
        run: {
          judgeName: judge.settings.name,
          judgeConfig: config as unknown as JsonValue,
          configDir: baseDir,
          casesFile: path.resolve(casesPath),
          casesSha256,
          cache: true,
        },
        onJudged: (outcome) => {
          if (outcome.result !== null) fold(outcome.result);
        },
      });
    } else {
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
        ...accumulator.figures({ seed, bootstrap }),
      };
    };
    const summary: CalibrationSummary = {
      judge: fingerprint.label,
      fingerprint: fingerprint.digest,
      ...overall.figures({ seed, bootstrap }),
      unlabelled: [...caseIds].filter(
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
        falsePassRate: summary.falsePassRate,
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
  caseIds: ReadonlySet<string>,
  casesPath: string,
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
        const label = parseLabelLine(text, labelsPath, line);
        if (!caseIds.has(label.caseId)) {
          throw new JudgeLabelsError(
            `${labelsPath}:${line}: case_id: ${JSON.stringify(label.caseId)} is not a case of ${casesPath}`,
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
