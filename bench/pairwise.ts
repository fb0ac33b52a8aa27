/**
 * Pairwise folding at 100,000 cases: the fold of `arena judge` for a pairwise
 * judge (`pairwiseAccumulator`: matching the two orders of each pair, keeping
 * three numbers per judged pair for the bootstrap) against the fold of plain
 * judging (`judgeSummaryAccumulator`) over the same results, in this process.
 *
 * Printed: the time to fold (ratio to plain judging's, target at most 5x), the
 * time of the summary (the bootstrap intervals, 2000 resamples; Bradley-Terry
 * intervals with three systems), and the live heap the fold keeps after a full
 * GC at 10,000 and at 100,000 cases: bytes per judged pair (target at most
 * 20: flat but for the bootstrap's three numbers a pair, never a text).
 */
import { pairwiseAccumulator } from '../src/domain/judge/pairwiseSummary.js';
import type { JudgeResult, PairWinner } from '../src/domain/judge/result.js';
import { judgeSummaryAccumulator } from '../src/domain/judge/summary.js';
import { createRng } from '../src/domain/shared/random.js';

const CASES = 100_000;
const FOLD_TARGET = 5;
/** A judged pair keeps 9 bytes (case, pair, outcome); arrays growing by doubling hold up to twice that. */
const BYTES_TARGET = 20;

/** The results of `cases` cases of `systems`, each pair in both orders, made as they are folded. */
function* results(cases: number, systems: readonly string[], seed: number): Generator<JudgeResult> {
  const rng = createRng(seed);
  const answers: PairWinner[] = ['first', 'second', 'tie'];
  for (let index = 0; index < cases; index++) {
    for (let i = 0; i < systems.length; i++) {
      for (let j = i + 1; j < systems.length; j++) {
        for (const [first, second] of [
          [systems[i]!, systems[j]!],
          [systems[j]!, systems[i]!],
        ] as const) {
          const winner = answers[rng.int(3)]!;
          yield {
            evaluationRunId: 'bench',
            caseId: `case-${index}`,
            subjectId: JSON.stringify([first, second]),
            judge: 'prefer',
            judgeVersion: '1',
            promptSha256: 'a'.repeat(64),
            rubricVersion: '1',
            status: 'passed',
            score: null,
            label: winner,
            evidence: [],
            model: 'm',
            usage: {
              inputTokens: 240,
              outputTokens: 30,
              reasoningTokens: 0,
              cacheReadTokens: 0,
              cacheWriteTokens: 0,
              totalTokens: 270,
            },
            costUsd: null,
            durationMs: 1,
            attemptCount: 1,
            errorType: null,
            detail: null,
            createdAt: '2026-12-03T00:00:00.000Z',
            pair: {
              systems: [systems[i]!, systems[j]!],
              first,
              second,
              winner,
              candidates: systems.length,
            },
          };
        }
      }
    }
  }
}

/** The live heap after a full GC, typed arrays' buffers included. */
function liveHeap(): number {
  // twice: a typed array's buffer is freed by the collection after the one that found it dead
  globalThis.gc?.();
  globalThis.gc?.();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function timed<T>(work: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = work();
  return { value, ms: performance.now() - start };
}

function foldPlain(cases: number, systems: readonly string[]): number {
  return timed(() => {
    const summary = judgeSummaryAccumulator();
    for (const result of results(cases, systems, 1)) summary.add(result);
    return summary.summary().total;
  }).ms;
}

function foldPairwise(cases: number, systems: readonly string[], resamples: number) {
  const before = liveHeap();
  const fold = pairwiseAccumulator({ seed: 1, resamples });
  const folding = timed(() => {
    for (const result of results(cases, systems, 1)) fold.add(result);
  });
  const kept = liveHeap() - before;
  const summary = timed(() => fold.summary());
  return { foldMs: folding.ms, summaryMs: summary.ms, kept, summary: summary.value };
}

for (const systems of [
  ['a', 'b'],
  ['a', 'b', 'c'],
]) {
  const resamples = 2000;
  // warm both folds up, then best of three
  foldPlain(5000, systems);
  foldPairwise(5000, systems, 50);
  const plain = Math.min(...[0, 1, 2].map(() => foldPlain(CASES, systems)));
  const small = foldPairwise(CASES / 10, systems, 50);
  const runs = [0, 1, 2].map(() => foldPairwise(CASES, systems, resamples));
  const best = runs.reduce((x, y) => (y.foldMs < x.foldMs ? y : x));
  const judgements = CASES * systems.length * (systems.length - 1);
  const ratio = best.foldMs / plain;
  const pairs = (systems.length * (systems.length - 1)) / 2;
  const perPair = best.kept / (CASES * pairs);
  const growth = (best.kept - small.kept) / ((CASES - CASES / 10) * pairs);
  console.log(`${systems.length} systems, ${CASES} cases (${judgements} judgements):`);
  console.log(
    `  fold: pairwise ${best.foldMs.toFixed(0)} ms, plain judge summary ${plain.toFixed(0)} ms: ${ratio.toFixed(2)}x (target <= ${FOLD_TARGET} ${ratio <= FOLD_TARGET ? 'met' : 'MISSED'})`,
  );
  console.log(
    `  summary with ${resamples} bootstrap resamples${systems.length > 2 ? ' (win rates and Bradley-Terry)' : ''}: ${best.summaryMs.toFixed(0)} ms`,
  );
  console.log(
    `  live heap kept by the fold: ${(small.kept / 1024).toFixed(0)} KiB at ${CASES / 10} cases, ${(best.kept / 1024).toFixed(0)} KiB at ${CASES}: ${perPair.toFixed(1)} bytes a judged pair, ${growth.toFixed(1)} a pair more (target <= ${BYTES_TARGET} ${growth <= BYTES_TARGET ? 'met' : 'MISSED'})`,
  );
  console.log(
    `  position consistency ${best.summary.positionConsistency?.toFixed(4)}, first-slot rate ${best.summary.firstSlotRate?.toFixed(4)}`,
  );
}
