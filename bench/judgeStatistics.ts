/**
 * What the judging statistics cost. Over 100,000 results, CPU time (user +
 * system, `process.cpuUsage`, the minimum of several repeats; the machine is
 * shared) of:
 * - the summary fold with its intervals (Wilson, the t interval of the mean
 *   score: a Welford update a result) against the fold as it was before
 *   (bench/_plainJudgeSummary.ts), ten folds a measurement. Target: under 2%
 *   more. The bare fold is some 30 ns a result, so this is strict: a
 *   judgement costs arena hundreds of µs (bench/judge.ts). Measured: +4-7%
 *   (0.002 µs a judgement): missed.
 * - the summary at a run's end, where the intervals' quantiles are computed once.
 * - the same fold with 5 trials a case (the standard error clustered by case).
 * - `compareRuns` pairing two runs of 100,000 cases, against the plain fold
 *   of one run.
 * Each is also given per judgement.
 * Distribution functions load at first use (Cephes' WebAssembly): that
 * one-off is printed apart.
 */
import { performance } from 'node:perf_hooks';
import type { JudgeResult, JudgeStatus } from '../src/domain/judge/result.js';
import { type ComparedValue, compareRuns } from '../src/domain/judge/runComparison.js';
import { judgeSummaryAccumulator } from '../src/domain/judge/summary.js';
import { createRng } from '../src/domain/shared/random.js';
import { normalQuantile } from '../src/domain/stats/distributions.js';
import { plainSummaryAccumulator } from './_plainJudgeSummary.js';

const CASES = 100_000;
const TRIALS = 5;
const repeats = 7;

const started = performance.now();
normalQuantile(0.975);
const loadMs = performance.now() - started;

const rng = createRng(2026);
const statuses: JudgeStatus[] = ['passed', 'passed', 'passed', 'failed', 'skipped'];
/** A pool of results cycled through: 100,000 folds without a heap of 100,000 objects (whose GC threads would be counted). */
const POOL = 5_000;
function poolOf(trials: number): JudgeResult[] {
  return Array.from({ length: POOL }, (_, index) => {
    const status = statuses[rng.int(statuses.length)]!;
    const caseId = `case-${Math.floor(index / trials)}`;
    return {
      evaluationRunId: 'bench',
      caseId,
      subjectId: caseId,
      status,
      score: status === 'skipped' ? null : Math.round(rng.next() * 100) / 100,
      usage: {
        inputTokens: 200,
        outputTokens: 40,
        reasoningTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        totalTokens: 240,
      },
      costUsd: 0.0001,
      trial: (index % trials) + 1,
    } as unknown as JudgeResult;
  });
}

/** CPU milliseconds of `run`, the minimum over the repeats. */
function cpuMs(run: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let repeat = 0; repeat < repeats; repeat++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

const single = poolOf(1);
const inTrials = poolOf(TRIALS);
let sink = 0;

function tenTimes(run: () => void): void {
  for (let time = 0; time < 10; time++) run();
}
let lastPlain = plainSummaryAccumulator();
let lastIntervals = judgeSummaryAccumulator();
function plainFold(pool: readonly JudgeResult[], count: number): void {
  const accumulator = plainSummaryAccumulator();
  for (let index = 0; index < count; index++) accumulator.add(pool[index % POOL]!);
  lastPlain = accumulator;
}
function intervalFold(pool: readonly JudgeResult[], count: number, trials: number): void {
  const accumulator = judgeSummaryAccumulator({ trials });
  for (let index = 0; index < count; index++) accumulator.add(pool[index % POOL]!);
  lastIntervals = accumulator;
}

const valuesOf = (count: number) =>
  new Map<string, ComparedValue>(
    Array.from({ length: count }, (_, index) => {
      const status = statuses[rng.int(statuses.length)]!;
      return [
        `case-${index}`,
        {
          pass: status === 'passed' ? 1 : status === 'skipped' ? null : 0,
          score: status === 'skipped' ? null : Math.round(rng.next() * 100) / 100,
        },
      ];
    }),
  );
const runA = valuesOf(CASES);
const runB = valuesOf(CASES);

// warm every path, then alternate the folds so that load on the shared machine falls on each alike
for (let round = 0; round < 3; round++) {
  plainFold(single, CASES);
  intervalFold(single, CASES, 1);
  intervalFold(inTrials, CASES, TRIALS);
}
const best = {
  plain: Number.POSITIVE_INFINITY,
  intervals: Number.POSITIVE_INFINITY,
  clustered: Number.POSITIVE_INFINITY,
};
for (let round = 0; round < 5; round++) {
  // ten folds a measurement: one fold of 100,000 results is ~3 ms, near the scheduler's noise
  best.plain = Math.min(best.plain, cpuMs(() => tenTimes(() => plainFold(single, CASES))) / 10);
  best.intervals = Math.min(
    best.intervals,
    cpuMs(() => tenTimes(() => intervalFold(single, CASES, 1))) / 10,
  );
  best.clustered = Math.min(
    best.clustered,
    cpuMs(() => intervalFold(inTrials, CASES, TRIALS)),
  );
}
// the summary at the end of a run: the intervals' quantiles (Cephes), once a run, not once a result
const plainEnd = cpuMs(() => {
  for (let call = 0; call < 100; call++) sink += lastPlain.summary().passRate ?? 0;
});
plainFold(single, CASES);
intervalFold(single, CASES, 1);
const intervalsEnd = cpuMs(() => {
  for (let call = 0; call < 100; call++) sink += lastIntervals.summary().passRateCi?.low ?? 0;
});
const compare = cpuMs(() => {
  sink += compareRuns(runA, runB, 0.05).paired;
});

const perJudgementUs = (ms: number) => ((ms * 1000) / CASES).toFixed(3);
const percent = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
const cases = CASES.toLocaleString('en');
console.log(
  `distribution functions (Cephes WebAssembly) loaded at first use in ${loadMs.toFixed(1)} ms, once a process`,
);
const extra = best.intervals / best.plain - 1;
console.log(
  `summary fold of ${cases} results: plain ${best.plain.toFixed(2)} ms, with intervals ${best.intervals.toFixed(2)} ms: ${percent(extra)} (target: under +2%${extra < 0.02 ? '' : ': missed'}); ${perJudgementUs(best.intervals - best.plain)} µs a judgement more`,
);
console.log(
  `the summary at a run's end: plain ${((plainEnd * 1000) / 100).toFixed(1)} µs, with its intervals (t and normal quantiles) ${((intervalsEnd * 1000) / 100).toFixed(1)} µs, once a run`,
);
console.log(
  `summary fold of ${cases} results, ${TRIALS} trials a case, clustered by case: ${best.clustered.toFixed(1)} ms: ${(best.clustered / best.plain).toFixed(2)}x the plain fold, ${perJudgementUs(best.clustered - best.plain)} µs a judgement more`,
);
console.log(
  `compare of two runs of ${cases} cases, paired by case: ${compare.toFixed(1)} ms, ${(compare / best.plain).toFixed(2)}x the plain fold of one run, ${perJudgementUs(compare)} µs a case`,
);
if (sink === Number.NEGATIVE_INFINITY) console.log('');
