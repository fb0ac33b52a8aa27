import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { JudgeResult } from '../../domain/judge/result.js';
import {
  type ComparedValue,
  compareRuns,
  type MeasureComparison,
  type RunComparison,
} from '../../domain/judge/runComparison.js';
import { formatInterval } from '../../domain/stats/interval.js';
import { CliError, ExitCode } from '../errors.js';
import { fileLines, isFileSystemError } from '../fileLines.js';
import { type ComparedRun, comparedResult, KeyedValues } from './judgeCompareValues.js';

/** The options of `arena judge compare`. */
export interface JudgeCompareOptions {
  store?: string;
  alpha: string;
  failIfWorse?: boolean;
  json?: boolean;
}

/**
 * `arena judge compare <A> <B>`: pair two runs over the same cases and say
 * which is better, with the paired statistics (see `compareRuns`). A and B
 * are `--out` results files or, with `--store`, evaluation run ids. Exit
 * code: 0, or 1 with `--fail-if-worse` when B is significantly worse than A;
 * 2 for bad input (no case in common, a line that is no result).
 *
 * @example
 * ```sh
 * arena judge compare examples/judge/compare/before.jsonl examples/judge/compare/after.jsonl
 * # A examples/judge/compare/before.jsonl, B examples/judge/compare/after.jsonl: 40 paired, 0 only in A, 0 only in B
 * # pass/fail over 40 pairs: both passed 18, only A passed 0, only B passed 4, neither 18
 * # ...
 * # verdict: B is better than A at alpha 0.05 (mean score: paired t p 4.148e-8, B higher)
 * ```
 */
export async function judgeCompareCommand(
  first: string,
  second: string,
  options: JudgeCompareOptions,
): Promise<void> {
  const alpha = Number(options.alpha);
  if (!(alpha > 0 && alpha < 1)) {
    throw new CliError(`--alpha must be a number between 0 and 1, got '${options.alpha}'`);
  }
  const [a, b] = await readRuns([first, second], options.store);
  if (a.reduced !== b.reduced) {
    throw new CliError(
      `${a.reduced ? a.source : b.source} holds reduced cases (--reduce) and ${a.reduced ? b.source : a.source} does not: compare runs reduced alike`,
    );
  }
  const comparison = compareRuns(a.values, b.values, alpha);
  if (comparison.paired === 0) {
    throw new CliError(
      `${a.source} and ${b.source} have no case in common (${a.values.size} and ${b.values.size} cases): a paired comparison needs the same cases, by case_id${a.reduced ? '' : ' and trial'}`,
    );
  }
  process.stdout.write(
    options.json
      ? `${JSON.stringify({ a: a.source, b: b.source, ...comparison })}\n`
      : formatComparison(a.source, b.source, comparison),
  );
  if (options.failIfWorse === true && comparison.bWorse) process.exitCode = ExitCode.failed;
}

/**
 * The comparison as a person reads it: what was paired, the pass/fail table
 * with McNemar's test, the score difference with its paired and unpaired
 * standard errors, and the verdict.
 *
 * @example
 * ```ts
 * formatComparison('a.jsonl', 'b.jsonl', comparison).split('\n')[0];
 * // 'A a.jsonl, B b.jsonl: 40 paired, 0 only in A, 0 only in B'
 * ```
 */
export function formatComparison(a: string, b: string, comparison: RunComparison): string {
  const lines = [
    `A ${a}, B ${b}: ${comparison.paired} paired, ${comparison.onlyInA} only in A, ${comparison.onlyInB} only in B`,
  ];
  const { passRate, score } = comparison;
  if (passRate === null) lines.push('pass rate: no pair where both runs have a verdict');
  else {
    if (passRate.table !== null) {
      const table = passRate.table;
      lines.push(
        `pass/fail over ${passRate.paired.n} pairs: both passed ${table.bothPassed}, only A passed ${table.onlyAPassed}, only B passed ${table.onlyBPassed}, neither ${table.neitherPassed}`,
      );
    }
    lines.push(`pass rate ${measureLine(passRate)}`);
  }
  if (score === null) lines.push('score: no pair where both runs have a score');
  else lines.push(`mean score ${measureLine(score)}`);
  lines.push(`verdict: ${verdictOf(comparison)}`);
  return `${lines.join('\n')}\n`;
}

function measureLine(measure: MeasureComparison): string {
  const { paired } = measure;
  const head = `A ${ratio(paired.meanA)}, B ${ratio(paired.meanB)}: difference ${signed(paired.meanDifference)}`;
  if (paired.pairedStandardError === null || paired.interval === null) {
    return `${head} (${paired.n} pair: too few for an error)`;
  }
  const test =
    measure.test === 'mcnemar_exact'
      ? `McNemar exact p ${pValue(measure.pValue)}`
      : `paired t test p ${pValue(measure.pValue)}`;
  return `${head} (95% CI ${formatInterval(paired.interval)}, paired SE ${ratio(paired.pairedStandardError)}, unpaired SE ${ratio(paired.unpairedStandardError)}${saved(paired.pairedStandardError, paired.unpairedStandardError)}); ${test}`;
}

/** How much smaller the paired standard error is than the unpaired one, when it is. */
function saved(pairedError: number, unpairedError: number | null): string {
  if (unpairedError === null || unpairedError <= 0 || pairedError >= unpairedError) return '';
  return `: pairing cut it by ${Math.round((1 - pairedError / unpairedError) * 100)}%`;
}

function verdictOf(comparison: RunComparison): string {
  const at = `at alpha ${comparison.alpha}`;
  const findings = [
    ['pass rate', comparison.passRate],
    ['mean score', comparison.score],
  ] as const;
  const named = findings.flatMap(([name, measure]) =>
    measure?.better == null
      ? []
      : [
          `${name}: ${measure.test === 'mcnemar_exact' ? 'McNemar' : 'paired t'} p ${pValue(measure.pValue)}, ${measure.better} higher`,
        ],
  );
  if (comparison.better === null) return `no difference found ${at}`;
  if (comparison.better === 'mixed') return `mixed ${at}: ${named.join('; ')}`;
  const other = comparison.better === 'B' ? 'A' : 'B';
  return `${comparison.better} is better than ${other} ${at} (${named.join('; ')})`;
}

/** Read both runs; each is a results file, else (with a store) an evaluation run id. */
async function readRuns(
  sources: readonly [string, string],
  storeUri: string | undefined,
): Promise<[ComparedRun, ComparedRun]> {
  const fromStore = sources.filter((source) => !existsSync(source));
  if (fromStore.length === 0) {
    return Promise.all(sources.map(readResultsFile)) as Promise<[ComparedRun, ComparedRun]>;
  }
  const given = storeUri ?? process.env.ARENA_STORE;
  if (given === undefined || given.trim() === '') {
    throw new CliError(
      `no results file ${fromStore[0]}: name an arena judge --out file, or an evaluation run id with --store <uri> (or ARENA_STORE)`,
    );
  }
  const { readStoredRun } = await import('./judgeCompareStore.js');
  return readStoredRun(sources, given, readResultsFile);
}

/**
 * A `--out` results file, as values by key: its judge results (by case,
 * subject and trial), or its `reduced` records (by case and subject) when it
 * has them.
 *
 * @throws CliError (exit 2) naming the file and line of a line that is neither, or of a key given twice.
 */
async function readResultsFile(file: string): Promise<ComparedRun> {
  const handle = await open(file).catch((error: unknown) => {
    throw new CliError(`cannot read results file ${file}`, ExitCode.badInput, { cause: error });
  });
  const results = new KeyedValues(file);
  const reduced = new KeyedValues(file);
  try {
    let line = 0;
    for await (const text of fileLines(handle)) {
      line++;
      if (text.trim() === '') continue;
      const record = parseRecord(text, `${file}:${line}`);
      if (record.kind === 'reduced') reduced.add(record.key, record.value, line);
      else results.add(record.key, record.value, line);
    }
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw new CliError(`cannot read results file ${file}`, ExitCode.badInput, { cause: error });
  } finally {
    await handle.close().catch(() => undefined);
  }
  const isReduced = reduced.values.size > 0;
  const values = isReduced ? reduced.values : results.values;
  if (values.size === 0) {
    throw new CliError(`${file} holds no result: expected the --out file of arena judge`);
  }
  return { source: file, values, reduced: isReduced };
}

const STATUSES = new Set(['passed', 'failed', 'skipped', 'error']);

function parseRecord(
  text: string,
  where: string,
): { kind: 'result' | 'reduced'; key: string; value: ComparedValue } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw notAResult(where, 'not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw notAResult(where, 'not a JSON object');
  }
  const record = parsed as Record<string, unknown>;
  if (typeof record.caseId !== 'string' || typeof record.subjectId !== 'string') {
    throw notAResult(where, 'no caseId and subjectId');
  }
  const score = record.score ?? null;
  if (score !== null && !(typeof score === 'number' && Number.isFinite(score))) {
    throw notAResult(where, 'score is neither a number nor null');
  }
  if (record.kind === 'reduced') {
    const pass = record.passValue ?? null;
    if (pass !== null && !(typeof pass === 'number' && pass >= 0 && pass <= 1)) {
      throw notAResult(where, 'passValue is neither a number from 0 to 1 nor null');
    }
    return {
      kind: 'reduced',
      key: JSON.stringify([record.caseId, record.subjectId]),
      value: { pass, score },
    };
  }
  if (typeof record.status !== 'string' || !STATUSES.has(record.status)) {
    throw notAResult(where, 'status is not one of passed, failed, skipped, error');
  }
  const trial = record.trial;
  if (
    trial !== undefined &&
    !(typeof trial === 'number' && Number.isInteger(trial) && trial >= 1)
  ) {
    throw notAResult(where, 'trial is not a positive integer');
  }
  return {
    kind: 'result',
    ...comparedResult({
      caseId: record.caseId,
      subjectId: record.subjectId,
      status: record.status as JudgeResult['status'],
      score,
      ...(trial !== undefined ? { trial } : {}),
    }),
  };
}

function notAResult(where: string, why: string): CliError {
  return new CliError(
    `${where}: not a line of an arena judge --out file (${why}): expected a judge result {"caseId", "subjectId", "status", "score", ...} or a reduced record`,
  );
}

function ratio(value: number | null): string {
  return value === null ? 'n/a' : String(Number(value.toFixed(4)));
}

function signed(value: number | null): string {
  if (value === null) return 'n/a';
  const rounded = Number(value.toFixed(4));
  return rounded > 0 ? `+${rounded}` : String(rounded);
}

/** A p-value to 4 significant digits, or `< 1e-16` where it is 0 in double precision. */
function pValue(value: number | null): string {
  if (value === null) return 'n/a';
  if (value === 0) return '< 1e-16';
  return String(Number(value.toPrecision(4)));
}
