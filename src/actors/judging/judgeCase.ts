import type { JudgeContext } from '../../domain/judge/context.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import { caseKeyOf, type JudgeStore, type VerdictRecording } from '../../ports/store/judgeStore.js';
import { type VerdictWriter, verdictWriterOf } from '../../ports/store/verdictWriter.js';
import { verdictCacheEntryOf } from './judgeCacheKey.js';
import type { Judge } from './judges.js';

/** What became of one case. */
export interface CaseOutcome {
  readonly recording: VerdictRecording;
  /** Served from the verdict cache, without a provider call. */
  readonly fromCache: boolean;
  /** The verdict this call produced (stored unless `recording` says otherwise); `null` when the case had one already. */
  readonly result: JudgeResult | null;
}

/** What `judgeCaseIntoStore` needs besides the case. */
export interface JudgeCaseOptions {
  readonly store: JudgeStore;
  readonly evaluationRunId: string;
  readonly judge: Judge;
  /** Consult and fill the verdict cache. */
  readonly cache: boolean;
  /** Who judges (`arena worker --name`), `null` in one process. */
  readonly worker: string | null;
  /** Aborting cancels the judgement: it rejects with `JudgeCancelledError` and records nothing. */
  readonly signal?: AbortSignal;
  /**
   * The case may have a verdict already (a redelivery): look before judging.
   * Default true; a first delivery skips the look (a racing duplicate still
   * records nothing: the store keeps one verdict per case).
   */
  readonly mayHaveVerdict?: boolean;
  /**
   * Where the verdict goes and the cache is read (a batching writer commits
   * many verdicts in one transaction); default the store, one at a time.
   * Either way this resolves only once the verdict committed.
   */
  readonly verdicts?: VerdictWriter;
}

/**
 * Judge one case of an evaluation run into the judge store: a case with a
 * verdict already (a redelivery) is left alone; a cached verdict is
 * recorded without a provider call; otherwise the judge judges it and its
 * verdict is recorded, at most once per case however many workers race, and
 * never after the run was cancelled. Errors are never cached. A recorded
 * result's `evaluationRunId` is the stored run's.
 *
 * @example
 * ```ts
 * await judgeCaseIntoStore(context, { store, evaluationRunId, judge, cache: true, worker: null });
 * // { recording: 'recorded', fromCache: false, result: { status: 'passed', … } }
 * ```
 */
export async function judgeCaseIntoStore(
  context: JudgeContext,
  options: JudgeCaseOptions,
): Promise<CaseOutcome> {
  const { store, evaluationRunId, judge } = options;
  const caseKey = caseKeyOf(context);
  const judgeName = judge.settings.name;
  if (
    options.mayHaveVerdict !== false &&
    (await store.hasVerdict(evaluationRunId, caseKey, judgeName))
  ) {
    return { recording: 'duplicate', fromCache: false, result: null };
  }
  const cacheEntry = options.cache ? verdictCacheEntryOf(judge, context) : undefined;
  const writer = options.verdicts ?? verdictWriterOf(store);
  const record = async (judged: JudgeResult, fromCache: boolean): Promise<CaseOutcome> => {
    // a verdict of a stored run names that run: the id arena printed, not the case file's default
    const result = { ...judged, evaluationRunId };
    const recording = await writer.record({
      evaluationRunId,
      caseKey,
      judgeName,
      result,
      fromCache,
      worker: options.worker,
      ...(cacheEntry !== undefined && !fromCache ? { cacheEntry } : {}),
    });
    return { recording, fromCache, result };
  };
  if (cacheEntry !== undefined) {
    const cached = await writer.cached(cacheEntry.key);
    if (cached !== null) return record(relabel(cached, context), true);
  }
  const result = await judge.evaluate(context, options.signal ? { signal: options.signal } : {});
  return record(options.cache ? { ...result, cached: false } : result, false);
}

/** A cached verdict, told as this case's: its ids, and that it came from the cache. */
function relabel(cached: JudgeResult, context: JudgeContext): JudgeResult {
  return {
    ...cached,
    evaluationRunId: context.evaluationRunId,
    caseId: context.caseId,
    subjectId: context.subjectId,
    cached: true,
    ...(cached.pair && context.pairwise
      ? { pair: { ...cached.pair, candidates: context.pairwise.candidates } }
      : {}),
  };
}
