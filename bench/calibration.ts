/**
 * The calibration fold of `arena judge calibrate` over 100,000 cases against
 * the plain judge summary fold over the same verdicts (the baseline, measured
 * in this process), and the memory each retains at 20,000 and 100,000 cases.
 * Targets: the calibration's add at most 3x the summary's per case; its
 * retained memory per case flat (100k / 20k per case within 1.5x), a few
 * numbers a case (the bootstrap's cell, two scores), at most 64 bytes a case.
 * The bootstrap itself (2000 resamples over every case) is timed apart.
 */
import { calibrationAccumulator } from '../src/domain/judge/calibration.js';
import type { JudgeResult, JudgeStatus } from '../src/domain/judge/result.js';
import { judgeSummaryAccumulator } from '../src/domain/judge/summary.js';
import { createRng } from '../src/domain/shared/random.js';
import { sampleResult } from '../test/support/judgeVerdicts.js';

const statuses: JudgeStatus[] = ['passed', 'failed', 'skipped', 'error'];

/** Case `index`'s verdict and the people's status, the same on every run (seeded). */
function* verdicts(count: number): Generator<{ result: JudgeResult; reference: string }> {
  const rng = createRng(7);
  for (let index = 0; index < count; index++) {
    const status = statuses[rng.int(20) === 0 ? 3 : rng.int(3)]!;
    const result = { ...sampleResult('bench', `case-${index}`, status), score: rng.next() };
    const reference =
      rng.int(5) === 0 ? statuses[rng.int(3)]! : status === 'error' ? 'failed' : status;
    yield { result, reference };
  }
}

const heap = (): number => {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
};

function foldSummary(count: number): { ms: number; bytes: number } {
  const before = heap();
  const started = performance.now();
  const summary = judgeSummaryAccumulator();
  for (const { result } of verdicts(count)) summary.add(result);
  const ms = performance.now() - started;
  const bytes = heap() - before;
  summary.summary();
  return { ms, bytes };
}

function foldCalibration(count: number): {
  ms: number;
  bytes: number;
  fold: ReturnType<typeof calibrationAccumulator>;
} {
  const before = heap();
  const started = performance.now();
  const fold = calibrationAccumulator({ categories: ['passed', 'failed', 'skipped'] });
  for (const { result, reference } of verdicts(count)) {
    fold.add({
      caseId: result.caseId,
      judge: result.status === 'error' ? null : result.status,
      reference,
      judgeScore: result.score,
      referenceScore: 0.5,
    });
  }
  const ms = performance.now() - started;
  return { ms, bytes: heap() - before, fold };
}

const fixed = (value: number, digits = 2) => value.toFixed(digits);

if (globalThis.gc === undefined)
  process.stdout.write('(run with --expose-gc for memory figures: npm run bench does)\n');
// warm up both folds once
foldSummary(20_000);
foldCalibration(20_000);
const baseline = foldSummary(100_000);
const calibration = foldCalibration(100_000);
process.stdout.write(
  `fold of 100,000 verdicts: calibration ${fixed(calibration.ms)} ms, summary ${fixed(baseline.ms)} ms: ratio ${fixed(calibration.ms / baseline.ms)}x (target <= 3x)\n`,
);
const small = foldCalibration(20_000);
const perCaseSmall = small.bytes / 20_000;
const perCaseLarge = calibration.bytes / 100_000;
process.stdout.write(
  `retained by the calibration fold: ${fixed(perCaseSmall, 1)} bytes a case at 20k, ${fixed(perCaseLarge, 1)} at 100k: ratio ${fixed(perCaseLarge / Math.max(perCaseSmall, 1e-9))}x (target <= 1.5x, and <= 64 bytes a case beyond the disagreeing cases' ids)\n`,
);
process.stdout.write(
  `retained by the summary fold at 100k: ${fixed(baseline.bytes / 100_000, 1)} bytes a case\n`,
);
const started = performance.now();
const figures = calibration.fold.figures({ seed: 1, bootstrap: 200 });
const bootstrapMs = performance.now() - started;
process.stdout.write(
  `figures with a 200-resample bootstrap over ${figures.n} cases: ${fixed(bootstrapMs)} ms, ${fixed(bootstrapMs / baseline.ms)}x the summary fold (kappa ${fixed(figures.kappa ?? Number.NaN, 4)}; 2000 resamples take about 10x this)\n`,
);
