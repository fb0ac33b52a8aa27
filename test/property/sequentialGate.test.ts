import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  fileWithPasses,
  isWrongDecision,
  type SimulatedRun,
  simulateGateRun,
} from '../support/sequentialRuns.js';

const THRESHOLD = 0.8;
const ALPHA = 0.05;

/** A file whose pass rate lies within a few points of the threshold, and how it is judged. */
const runs = fc
  .record({
    total: fc.integer({ min: 100, max: 400 }),
    offset: fc.integer({ min: -12, max: 8 }),
    fileSeed: fc.nat(),
    seed: fc.nat({ max: 0xffffffff }),
    concurrency: fc.integer({ min: 1, max: 48 }),
    slowFailures: fc.constantFrom(1, 5, 50),
    timingSeed: fc.nat(),
    resumeFractions: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
  })
  .map(({ total, offset, fileSeed, resumeFractions, ...rest }) => {
    // passes near N * p0: offset 0 is exactly the threshold (a FAIL is wrong), -1 just below (a PASS is wrong)
    const passes = Math.min(total, Math.max(0, Math.ceil(total * THRESHOLD) + offset));
    const run: SimulatedRun = {
      values: fileWithPasses(total, passes, fileSeed),
      threshold: THRESHOLD,
      alpha: ALPHA,
      foldIn: 'draw',
      ...rest,
      // killed and resumed at random points: the fold state through the store's JSON each time
      resumeAfter: resumeFractions.map((fraction) => 1 + Math.floor(fraction * (total - 1))),
    };
    return run;
  });

describe('sequential gate', () => {
  test.prop([runs], { numRuns: 60 })(
    'the decision and the case it is reached at depend on the draw order only: not on concurrency, timing or resumes at random points',
    (run) => {
      const plain = simulateGateRun({
        ...run,
        concurrency: 1,
        slowFailures: 1,
        resumeAfter: undefined,
      } as SimulatedRun);
      const outcome = simulateGateRun(run);
      expect([outcome.decision, outcome.decidedAt]).toEqual([plain.decision, plain.decidedAt]);
    },
  );

  test.prop([runs], { numRuns: 60 })(
    'judging never runs more than four times the concurrency ahead of the fold',
    (run) => {
      const outcome = simulateGateRun(run);
      expect(outcome.maxAhead).toBeLessThan(4 * run.concurrency);
      // judged past the decision: at most what was in flight or ahead, besides what each resume repeats
      const repeated = (run.resumeAfter?.length ?? 0) * 4 * run.concurrency;
      expect(outcome.judged).toBeLessThanOrEqual(
        outcome.decidedAt + 4 * run.concurrency + repeated,
      );
    },
  );

  const files = 400;
  const bound = ALPHA + 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / files);

  it(`wrong decisions over ${files} random files near the threshold stay within alpha plus 3 Monte Carlo standard errors (${bound.toFixed(3)}), with failures slow, concurrency and up to three resumes at random points`, () => {
    const sampled = fc.sample(runs, { numRuns: files, seed: 20261203 });
    let wrong = 0;
    for (const run of sampled) {
      const outcome = simulateGateRun({ ...run, slowFailures: 50 });
      if (isWrongDecision(outcome.decision, run.values, THRESHOLD)) wrong++;
    }
    expect(wrong / files).toBeLessThanOrEqual(bound);
  });

  it('a fold in completion order (the wrong way) passes files below the threshold when failures are slow', () => {
    const sampled = fc.sample(runs, { numRuns: 100, seed: 7 });
    let wrongDraw = 0;
    let wrongCompletion = 0;
    let belowThreshold = 0;
    for (const run of sampled) {
      // a file a little below the threshold, judged 32 at once, failures 50 times slower
      const total = run.values.length;
      const values = fileWithPasses(
        total,
        Math.ceil(total * THRESHOLD) - Math.ceil(total * 0.03),
        run.seed,
      );
      const unfair = { ...run, values, concurrency: 32, slowFailures: 50, resumeAfter: undefined };
      belowThreshold++;
      const right = simulateGateRun({ ...unfair, foldIn: 'draw' } as SimulatedRun);
      const wrong = simulateGateRun({ ...unfair, foldIn: 'completion' } as SimulatedRun);
      if (isWrongDecision(right.decision, values, THRESHOLD)) wrongDraw++;
      if (isWrongDecision(wrong.decision, values, THRESHOLD)) wrongCompletion++;
    }
    expect(wrongDraw / belowThreshold).toBeLessThanOrEqual(
      ALPHA + 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / belowThreshold),
    );
    expect(wrongCompletion / belowThreshold).toBeGreaterThan(0.5);
  });
});
