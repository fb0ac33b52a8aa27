import { type FileHandle, open } from 'node:fs/promises';
import type { JudgeConfig } from '../../config/judgeConfig.js';
import { createCaseKeyDigests } from '../../domain/judge/caseKeyDigests.js';
import {
  type CaseLineOutcome,
  type MalformedCaseLine,
  parseCaseLine,
} from '../../domain/judge/cases.js';
import type { JudgeContext } from '../../domain/judge/context.js';
import { type ErrorTypeCount, failedGates, type JudgeSummary } from '../../domain/judge/summary.js';
import type { LogLevel } from '../../ports/runtime/logger.js';
import { cannotReadFile } from '../../ports/runtime/unreadableFile.js';
import { caseKeyOf } from '../../ports/store/judgeStore.js';
import { counted } from '../counted.js';
import { CliError, ExitCode } from '../errors.js';
import { fileLines, isFileSystemError } from '../fileLines.js';
import type { AgreementReport } from './judgePanelReport.js';
import type { NatsCredentialFlags } from './natsTarget.js';

export interface JudgeCommandOptions extends NatsCredentialFlags {
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
  maxInFlight?: string;
  trials?: string;
  seed?: string;
}

/** The evaluation run id of cases without one: named after the cases file's bytes. */
export function defaultRunIdOf(casesSha256: string): string {
  return `judge-${casesSha256.slice(0, 12)}`;
}

/** What `scanCases` found: the lines that are cases and those that are malformed (each reported). */
export interface CasesScan {
  readonly cases: number;
  readonly malformed: number;
}

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
  options: { readonly messageSize?: MessageSize } = {},
): Promise<CasesScan> {
  const seen = createCaseKeyDigests();
  let line = 0;
  let cases = 0;
  let malformed = 0;
  for await (const outcome of caseLines(file, defaultRunId, casesPath)) {
    line++;
    if (outcome.kind === 'malformed') {
      malformed++;
      reportMalformedLine(casesPath, outcome.problem);
      continue;
    }
    if (outcome.kind !== 'case') continue;
    cases++;
    const { context } = outcome;
    const key = caseKeyOf(context);
    if (!seen.add(key)) {
      const first = await firstLineOf(file, key, line, defaultRunId, casesPath);
      if (first !== null) {
        throw new CliError(
          `${casesPath}:${line}: case id ${JSON.stringify(context.caseId)}${context.subjectId === context.caseId ? '' : ` for subject ${JSON.stringify(context.subjectId)}`} is given again (first on line ${first}): a case is judged once, give each its own case_id`,
          ExitCode.badInput,
        );
      }
    }
    const size = options.messageSize?.(context);
    if (size !== undefined && size.bytes > size.maxBytes) {
      throw new CliError(
        `${casesPath}:${line}: case id ${JSON.stringify(context.caseId)} needs a queue message of ${size.bytes} bytes, more than the NATS server's max_payload of ${size.maxBytes} bytes: nothing was queued (shorten the case, or raise max_payload on the server)`,
        ExitCode.badInput,
      );
    }
  }
  return { cases, malformed };
}

/** The first line before `before` whose case has `key`; `null` when none has (two keys shared a digest). */
async function firstLineOf(
  file: FileHandle,
  key: string,
  before: number,
  defaultRunId: string,
  casesPath: string,
): Promise<number | null> {
  let line = 0;
  for await (const outcome of caseLines(file, defaultRunId, casesPath)) {
    line++;
    if (line >= before) return null;
    if (outcome.kind === 'case' && caseKeyOf(outcome.context) === key) return line;
  }
  return null;
}

/** The cases of the file as they are read (malformed and blank lines skipped: `scanCases` told of them). */
export async function* caseContexts(
  file: FileHandle,
  defaultRunId: string,
  casesPath: string,
): AsyncGenerator<JudgeContext> {
  for await (const outcome of caseLines(file, defaultRunId, casesPath)) {
    if (outcome.kind === 'case') yield outcome.context;
  }
}

/** The cases file's lines as they are read, each parsed; the file is never held whole. */
export async function* caseLines(
  file: FileHandle,
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
 * // 'judged 4 cases with strict: passed 2, failed 1, skipped 1, error 0\nmean score 0.6333, …\ngates: pass\n'
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
  const ratio = (value: number | null): string =>
    value === null ? 'n/a' : String(Number(value.toFixed(4)));
  const lines = [
    `judged ${extra.judged ?? counted(summary.total, 'case')} with ${judgeName}: ${statuses}${malformed > 0 ? `; ${counted(malformed, 'malformed line')} skipped` : ''}`,
    `mean score ${ratio(summary.meanScore)}, pass rate ${ratio(summary.passRate)}, tokens ${summary.totalTokens} (in ${summary.inputTokens}, out ${summary.outputTokens}), ${costText(summary.costUsd)}`,
    ...summary.errorTypes.map(errorTypeLine),
    ...extra.lines,
    gates.length === 0 ? 'gates: pass' : `gates: FAILED: ${gates.join('; ')}`,
  ];
  return `${lines.join('\n')}\n`;
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
