import { type FileHandle, open } from 'node:fs/promises';
import path from 'node:path';
import type { InspectionEvent, Observer } from 'xstate';
import { judgeFromConfig } from '../../actors/judging/judgeFromConfig.js';
import type { Judge } from '../../actors/judging/judges.js';
import type { JudgeConfig } from '../../config/judgeConfig.js';
import { createCaseKeyDigests } from '../../domain/judge/caseKeyDigests.js';
import {
  type CaseLineOutcome,
  contextsOfLine,
  type MalformedCaseLine,
  parseCaseLine,
} from '../../domain/judge/cases.js';
import type { JudgeContext } from '../../domain/judge/context.js';
import { parsePairwiseCaseLine } from '../../domain/judge/pairwiseCases.js';
import { type ErrorTypeCount, failedGates, type JudgeSummary } from '../../domain/judge/summary.js';
import type { JsonValue } from '../../domain/shared/json.js';
import { formatEstimate } from '../../domain/stats/interval.js';
import type { LogLevel } from '../../ports/runtime/logger.js';
import { createLogger } from '../../ports/runtime/logger.js';
import { cannotReadFile } from '../../ports/runtime/unreadableFile.js';
import { caseKeyOf, type NewEvaluationRun } from '../../ports/store/judgeStore.js';
import { counted } from '../counted.js';
import { CliError, ExitCode } from '../errors.js';
import { fileLines, isFileSystemError } from '../fileLines.js';
import type { AgreementReport } from './judgePanelReport.js';
import type { NatsCredentialFlags } from './natsTarget.js';
import type { ViewFlags } from './viewOptions.js';

export interface JudgeCommandOptions extends NatsCredentialFlags, ViewFlags {
  logLevel: LogLevel;
  config: string;
  out?: string;
  json?: boolean;
  concurrency: string;
  judge?: string;
  runId?: string;
  store?: string;
  wait?: boolean;
  cache: boolean;
  keepTexts?: boolean;
  maxInFlight?: string;
  trials?: string;
  seed?: string;
  reduce?: string;
  resume?: string;
}

/** The evaluation run id of cases without one: named after the cases file's bytes. */
export function defaultRunIdOf(casesSha256: string): string {
  return `judge-${casesSha256.slice(0, 12)}`;
}

/**
 * The evaluation run a judge command creates in the store: the judge, its
 * config with the folder its relative paths are read from, and the cases file
 * (its path made absolute, and the sha256 of its bytes).
 *
 * @example
 * ```ts
 * evaluationRunOf('strict', loadJudgeConfig('judge.yaml'), 'cases.jsonl', casesSha256, true);
 * // { judgeName: 'strict', judgeConfig: config, configDir: '/work', casesFile: '/work/cases.jsonl', casesSha256, cache: true }
 * ```
 */
export function evaluationRunOf(
  judgeName: string,
  { config, baseDir }: { readonly config: JudgeConfig; readonly baseDir: string },
  casesPath: string,
  casesSha256: string,
  cache: boolean,
): NewEvaluationRun {
  return {
    judgeName,
    judgeConfig: config as unknown as JsonValue,
    configDir: baseDir,
    casesFile: path.resolve(casesPath),
    casesSha256,
    cache,
  };
}

/** What `scanCases` found: the lines that are cases and those that are malformed (each reported). */
export interface CasesScan {
  readonly cases: number;
  readonly malformed: number;
  /** The judgements the cases make: one a case, or for a pairwise judge two a pair of systems. */
  readonly judgements: number;
}

/** How the judge reads a case: one candidate output (`single`), or `candidates` to compare in pairs. */
export type CaseMode = 'single' | 'pairwise';

/** What a queue message of a case would weigh, beside the most its server takes. */
export type MessageSize = (context: JudgeContext) => {
  readonly bytes: number;
  readonly maxBytes: number;
};

/**
 * Read the cases file once before anything is judged or queued, in memory
 * bounded by the longest line and 16-32 bytes a case (the digests of the
 * case keys seen): report each malformed line, count the cases, and refuse
 * (exit 2) a case key given twice, naming both lines, and, with `messageSize`,
 * a case too large for the queue's server, naming its line and the limit.
 *
 * @throws CliError (exit 2) for a repeated case or one too large.
 * @example
 * ```ts
 * await scanCases(file, 'judge-1a2b', 'cases.jsonl');
 * // { cases: 4, malformed: 0 }, or throws 'cases.jsonl:7: case id "a" is given again (first on line 3)'
 * ```
 */
export async function scanCases(
  file: FileHandle,
  defaultRunId: string,
  casesPath: string,
  options: { readonly messageSize?: MessageSize; readonly mode?: CaseMode } = {},
): Promise<CasesScan> {
  const mode = options.mode ?? 'single';
  const seen = createCaseKeyDigests();
  let line = 0;
  let cases = 0;
  let judgements = 0;
  let malformed = 0;
  for await (const outcome of caseLines(file, defaultRunId, casesPath, mode)) {
    line++;
    if (outcome.kind === 'malformed') {
      malformed++;
      reportMalformedLine(casesPath, outcome.problem);
      continue;
    }
    const contexts = contextsOfLine(outcome);
    if (contexts.length === 0) continue;
    cases++;
    judgements += contexts.length;
    const context = contexts[0]!;
    const key = lineKeyOf(outcome);
    if (!seen.add(key)) {
      const first = await firstLineOf(file, key, line, defaultRunId, casesPath, mode);
      if (first !== null) {
        throw new CliError(
          `${casesPath}:${line}: case id ${JSON.stringify(context.caseId)}${outcome.kind !== 'case' || context.subjectId === context.caseId ? '' : ` for subject ${JSON.stringify(context.subjectId)}`} is given again (first on line ${first}): a case is judged once, give each its own case_id`,
          ExitCode.badInput,
        );
      }
    }
    const size = largestMessage(contexts, options.messageSize);
    if (size !== undefined && size.bytes > size.maxBytes) {
      throw new CliError(
        `${casesPath}:${line}: case id ${JSON.stringify(context.caseId)} needs a queue message of ${size.bytes} bytes, more than the NATS server's max_payload of ${size.maxBytes} bytes: nothing was queued (a message carries the case's name, not its texts: shorten its case_id, or raise max_payload on the server)`,
        ExitCode.badInput,
      );
    }
  }
  return { cases, malformed, judgements };
}

/** The identity of a line's case: its key, or for a pairwise case its run and case id. */
function lineKeyOf(outcome: CaseLineOutcome): string {
  if (outcome.kind === 'case') return caseKeyOf(outcome.context);
  if (outcome.kind !== 'pairwise') return '';
  const [context] = outcome.contexts;
  return JSON.stringify(['pairwise', context?.evaluationRunId, outcome.caseId]);
}

/** The largest queue message of a line's judgements, beside the limit. */
function largestMessage(
  contexts: readonly JudgeContext[],
  messageSize: MessageSize | undefined,
): ReturnType<MessageSize> | undefined {
  if (messageSize === undefined) return undefined;
  let largest: ReturnType<MessageSize> | undefined;
  for (const context of contexts) {
    const size = messageSize(context);
    if (largest === undefined || size.bytes > largest.bytes) largest = size;
  }
  return largest;
}

/** The first line before `before` whose case has `key`; `null` when none has (two keys shared a digest). */
async function firstLineOf(
  file: FileHandle,
  key: string,
  before: number,
  defaultRunId: string,
  casesPath: string,
  mode: CaseMode,
): Promise<number | null> {
  let line = 0;
  for await (const outcome of caseLines(file, defaultRunId, casesPath, mode)) {
    line++;
    if (line >= before) return null;
    if (contextsOfLine(outcome).length > 0 && lineKeyOf(outcome) === key) return line;
  }
  return null;
}

/**
 * The judgements of the file as they are read (malformed and blank lines
 * skipped: `scanCases` told of them): a case each, or every order of every
 * pair of a pairwise case, one after the other.
 */
export async function* caseContexts(
  file: FileHandle,
  defaultRunId: string,
  casesPath: string,
  mode: CaseMode = 'single',
): AsyncGenerator<JudgeContext> {
  for await (const outcome of caseLines(file, defaultRunId, casesPath, mode)) {
    yield* contextsOfLine(outcome);
  }
}

/** The cases file's lines as they are read, each parsed; the file is never held whole. */
export async function* caseLines(
  file: FileHandle,
  defaultRunId: string,
  casesPath: string,
  mode: CaseMode = 'single',
): AsyncGenerator<CaseLineOutcome> {
  const parse = mode === 'pairwise' ? parsePairwiseCaseLine : parseCaseLine;
  let line = 0;
  try {
    for await (const text of fileLines(file)) {
      line += 1;
      yield parse(text, line, defaultRunId);
    }
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw cannotRead(casesPath, error);
  }
}

/** Open the cases file; one that cannot be opened, or is no file (a folder), is bad input. */
export async function openCases(casesPath: string): Promise<FileHandle> {
  const file = await open(casesPath).catch((error: unknown) => {
    throw cannotRead(casesPath, error);
  });
  let cause: unknown;
  const isFile = await file.stat().then(
    (stats) => {
      // a folder opens for reading on Linux: say what the read would (EISDIR)
      if (stats.isDirectory()) cause = Object.assign(new Error('a folder'), { code: 'EISDIR' });
      return stats.isFile();
    },
    (error: unknown) => {
      cause = error;
      return false;
    },
  );
  if (!isFile) {
    await file.close().catch(() => undefined);
    throw cannotRead(casesPath, cause);
  }
  return file;
}

function cannotRead(casesPath: string, cause: unknown): CliError {
  return new CliError(cannotReadFile(casesPath, cause), ExitCode.badInput, { cause });
}

/** Tell of a malformed line on stderr, with its number: it is skipped, the rest still judged. */
export function reportMalformedLine(casesPath: string, problem: MalformedCaseLine): void {
  process.stderr.write(`arena: ${casesPath}:${problem.line}: ${problem.message}\n`);
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
  // the summary is the command's output where it can be told from the results: after --out, or as JSON
  (options.out || options.json ? process.stdout : process.stderr).write(report);
  if (malformedLines > 0) process.exitCode = ExitCode.badInput;
  else if (gates.length > 0) process.exitCode = ExitCode.failed;
}

/**
 * The summary of `arena judge` as a person reads it: counts by status, mean
 * score, pass rate, tokens and cost, any agreement lines, then the gates.
 *
 * @example
 * ```ts
 * formatSummary('strict', summary, 0, [], { lines: [], json: {}, failedGates: [] });
 * // 'judged 4 cases with strict: passed 2, failed 1, skipped 1, error 0\npass rate 0.6667 (95% CI 0.2077-0.9385, n 3), …\ngates: pass\n'
 * ```
 */
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
  const skipped = malformed > 0 ? `; ${counted(malformed, 'malformed line')} skipped` : '';
  const tokens = `tokens ${summary.totalTokens} (in ${summary.inputTokens}, out ${summary.outputTokens}), ${costText(summary.costUsd)}`;
  const lines = [
    ...(extra.headline === undefined
      ? [
          `judged ${extra.judged ?? counted(summary.total, 'case')} with ${judgeName}: ${statuses}${skipped}`,
          ratesLine(summary),
          tokens,
        ]
      : [`${extra.headline}${skipped}`, tokens]),
    ...summary.errorTypes.map(errorTypeLine),
    ...extra.lines,
    gates.length === 0 ? 'gates: pass' : `gates: FAILED: ${gates.join('; ')}`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The pass rate and the mean score, each with its 95% interval and what it
 * counts: `pass rate 0.72 (95% CI 0.68-0.76, n 500), mean score 0.7 (95% CI 0.67-0.73, n 500)`;
 * with unreduced trials the intervals say they are clustered by case, and
 * reduced trials name the reducer first.
 *
 * @example
 * ```ts
 * ratesLine(summaryOfTrials);
 * // 'pass rate 0.6667 (95% CI 0.1332-1 clustered by 3 cases, n 9), mean score 0.6333 (95% CI -0.4838 to 1.7504 clustered by 3 cases, n 9)'
 * ```
 */
export function ratesLine(summary: JudgeSummary): string {
  const clustered =
    summary.clusteredBy === undefined ? '' : `clustered by ${summary.clusteredBy.cases} cases`;
  const reduced =
    summary.reduced === undefined
      ? ''
      : `reduced by ${summary.reduced.reducer} over ${summary.reduced.trials} trials: `;
  return `${reduced}pass rate ${formatEstimate(summary.passRate, summary.passRateCi, summary.n, clustered)}, mean score ${formatEstimate(summary.meanScore, summary.meanScoreCi, summary.scored, clustered)}`;
}

/** `cost $0.001200`, or that it is unknown: no result had a price (unknown is not zero). */
function costText(costUsd: number | null): string {
  return costUsd === null ? 'cost unknown (no prices configured)' : `cost $${costUsd.toFixed(6)}`;
}

/** `errors: 2 JudgeResponseError, first: status: expected passed, failed or skipped, got "pass"`. */
function errorTypeLine(counted: ErrorTypeCount): string {
  const first = counted.firstDetail === null ? '' : `, first: ${counted.firstDetail}`;
  return `errors: ${counted.count} ${counted.errorType}${first}`;
}

/**
 * The judge a command judges with: the config's profile (`--judge`, else its
 * own), one kept-alive connection per judgement in flight (no more are ever
 * opened), logging as `--log-level` and `--json` say.
 *
 * @example
 * ```ts
 * const judge = await commandJudge(config, baseDir, options, 8);
 * judge.settings.name; // 'strict'
 * ```
 */
export function commandJudge(
  config: JudgeConfig,
  baseDir: string,
  options: Pick<JudgeCommandOptions, 'logLevel' | 'json' | 'judge'>,
  concurrency: number,
  inspect?: Observer<InspectionEvent>,
): Promise<Judge> {
  return judgeFromConfig(config, {
    baseDir,
    ...(inspect !== undefined ? { inspect } : {}),
    logger: createLogger({ level: options.logLevel, json: options.json === true }),
    maxConnections: concurrency,
    ...(options.judge ? { name: options.judge } : {}),
  });
}
