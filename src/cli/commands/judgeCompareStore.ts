import { existsSync } from 'node:fs';
import { endedRunVerdicts } from '../../actors/judging/evaluationRuns.js';
import { EvaluationRunNotFoundError, type JudgeStore } from '../../ports/store/judgeStore.js';
import { openJudgeStore } from '../../ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../ports/store/storeUri.js';
import { CliError } from '../errors.js';
import { type ComparedRun, comparedResult, KeyedValues } from './judgeCompareValues.js';

/**
 * Read the two sides of `arena judge compare` where at least one is no file:
 * each that is a file through `readFile`, each other one as an evaluation run
 * of the store at `storeUri`, its verdicts by case and subject.
 *
 * @throws CliError (exit 2) for a run id the store does not hold, or a run that was cancelled or failed.
 * @example
 * ```ts
 * await readStoredRun(['strict-20261201T110000-3fa2', 'after.jsonl'], 'sqlite:verdicts.db', readResultsFile);
 * // [{ source: 'evaluation run strict-20261201T110000-3fa2', values: Map(2000), reduced: false }, { source: 'after.jsonl', ... }]
 * ```
 */
export async function readStoredRun(
  sources: readonly [string, string],
  storeUri: string,
  readFile: (file: string) => Promise<ComparedRun>,
): Promise<[ComparedRun, ComparedRun]> {
  let store: JudgeStore | null = null;
  try {
    const opened = await openJudgeStore(parseStoreUri(storeUri), { readonly: true });
    store = opened;
    const read = (source: string): Promise<ComparedRun> =>
      existsSync(source) ? readFile(source) : readRun(opened, source);
    return [await read(sources[0]), await read(sources[1])];
  } finally {
    await store?.close();
  }
}

async function readRun(store: JudgeStore, evaluationRunId: string): Promise<ComparedRun> {
  const source = `evaluation run ${evaluationRunId}`;
  const run = await store.getEvaluationRun(evaluationRunId).catch((error: unknown) => {
    if (error instanceof EvaluationRunNotFoundError) {
      throw new CliError(
        `${evaluationRunId} is neither a results file nor an evaluation run of the store: ${error.message}`,
        undefined,
        { cause: error },
      );
    }
    throw error;
  });
  const values = new KeyedValues(source);
  let verdicts: ReturnType<typeof endedRunVerdicts>;
  try {
    verdicts = endedRunVerdicts(store, run);
  } catch (error) {
    throw new CliError(
      `${source} has no verdicts to compare: ${error instanceof Error ? error.message : String(error)}`,
      undefined,
      { cause: error },
    );
  }
  for await (const verdict of verdicts) {
    const { key, value } = comparedResult(verdict.result);
    values.add(key, value);
  }
  return { source, values: values.values, reduced: false };
}
