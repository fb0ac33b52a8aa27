import type { JudgeResult } from '../../domain/judge/result.js';
import { batchedCalls } from '../runtime/batchedCalls.js';
import type { JudgeStore, NewVerdict, StoredCase, VerdictRecording } from './judgeStore.js';

/** Where a judgement's verdict goes, and where its case and its cached result are looked up. */
export interface VerdictWriter {
  /**
   * Record a verdict: resolves with its recording once the transaction that
   * holds it committed (ack a queued case only then), rejects with that
   * transaction's error (nothing of it was recorded, or the reply was lost:
   * record it again, the store keeps one verdict per case).
   */
  record(verdict: NewVerdict): Promise<VerdictRecording>;
  /** The cached result under `key`, or `null`. */
  cached(key: string): Promise<JudgeResult | null>;
  /** The case a run holds under `caseKey`, or `null` (a forged or stray name). */
  storedCase(evaluationRunId: string, caseKey: string): Promise<StoredCase | null>;
  /** Send what is gathered now; resolves once it committed (or failed). */
  flush(): Promise<void>;
}

/** How a batching writer gathers verdicts. */
export interface VerdictBatchOptions {
  /** A batch commits as soon as it holds this many verdicts (or cache reads); default 64. */
  readonly maxVerdicts?: number;
  /** A verdict waits at most this long for others before its batch commits; default 10 ms. */
  readonly maxWaitMs?: number;
}

/** A case asked for by its run and key. */
interface CaseWanted {
  readonly evaluationRunId: string;
  readonly caseKey: string;
}

/** How long a case read waits for the other cases of its pull. */
const caseReadWaitMs = 2;

/**
 * A writer that records each verdict in its own transaction, as the store's
 * `recordVerdict` does, and reads the cache one key at a time.
 *
 * @example
 * ```ts
 * await verdictWriterOf(store).record(verdict); // 'recorded'
 * ```
 */
export function verdictWriterOf(store: JudgeStore): VerdictWriter {
  return {
    record: (verdict) => store.recordVerdict(verdict),
    cached: (key) => store.cachedVerdict(key),
    storedCase: (evaluationRunId, caseKey) => store.storedCase(evaluationRunId, caseKey),
    flush: async () => undefined,
  };
}

/**
 * A writer that gathers the verdicts of the same moment, per evaluation run,
 * and commits each batch in one transaction (`recordVerdicts`: one insert,
 * the run's count updated once); the cache entries, and a run's cases,
 * asked for at the same moment are read with one statement. Each `record`
 * resolves only once its batch committed, so a worker that acks after it
 * never acks a case whose verdict a crash could lose; a crash before the
 * commit costs a redelivery.
 *
 * @example
 * ```ts
 * const writer = batchingVerdictWriter(store, { maxVerdicts: 16, maxWaitMs: 10 });
 * await Promise.all(verdicts.map((verdict) => writer.record(verdict)));
 * // ['recorded', 'recorded', …]: one transaction for up to 16 of them
 * ```
 */
export function batchingVerdictWriter(
  store: JudgeStore,
  options: VerdictBatchOptions = {},
): VerdictWriter {
  const limits = { maxSize: options.maxVerdicts ?? 64, maxWaitMs: options.maxWaitMs ?? 10 };
  const verdicts = batchedCalls(
    (_run, batch: readonly NewVerdict[]) => store.recordVerdicts(batch),
    (verdict) => verdict.evaluationRunId,
    limits,
  );
  const cacheReads = batchedCalls(
    (_, keys: readonly string[]) => store.cachedVerdicts(keys),
    () => '',
    limits,
  );
  // a case is read before it is judged: only the cases of one pull, which arrive together, wait for each other
  const caseReads = batchedCalls(
    (evaluationRunId, wanted: readonly CaseWanted[]) =>
      store.storedCases(
        evaluationRunId,
        wanted.map(({ caseKey }) => caseKey),
      ),
    ({ evaluationRunId }) => evaluationRunId,
    { maxSize: limits.maxSize, maxWaitMs: Math.min(limits.maxWaitMs, caseReadWaitMs) },
  );
  return {
    record: (verdict) => verdicts.call(verdict),
    cached: (key) => cacheReads.call(key),
    storedCase: (evaluationRunId, caseKey) => caseReads.call({ evaluationRunId, caseKey }),
    async flush() {
      await Promise.all([verdicts.flush(), cacheReads.flush(), caseReads.flush()]);
    },
  };
}
