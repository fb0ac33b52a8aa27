import {
  foldSequentialGates,
  type SequentialGateState,
  sequentialGates,
} from '../../src/domain/judge/sequentialGate.js';
import { createRng } from '../../src/domain/shared/random.js';
import { drawOrder } from '../../src/domain/stats/drawOrder.js';
import { reorderBuffer } from '../../src/domain/stats/reorderBuffer.js';
import { decodeStoredJson, encodeStoredJson } from '../../src/ports/store/storedJson.js';

/** One simulated evaluation run of the sequential gate over a file of pass/fail results. */
export interface SimulatedRun {
  /** The file: 1 for a case that passes, 0 for one that fails, in file order. */
  readonly values: readonly number[];
  readonly threshold: number;
  readonly alpha: number;
  readonly seed: number;
  /** Judgements in flight at once. */
  readonly concurrency: number;
  /** A failing case takes this many times as long as a passing one (> 1 favours passes). */
  readonly slowFailures: number;
  /** The seed of the judgement durations. */
  readonly timingSeed: number;
  /** `draw`: the reorder buffer (right); `completion`: each result as it completes (the wrong way). */
  readonly foldIn: 'draw' | 'completion';
  /**
   * Stop (losing what is in flight) once this many results are folded, keep
   * the gates' state as the judge store keeps it (`encodeStoredJson`), and
   * resume from what it reads back (`decodeStoredJson`); once at each point.
   */
  readonly resumeAfter?: readonly number[];
}

/** How a simulated run ended. */
export interface SimulatedOutcome {
  readonly decision: 'pass' | 'fail';
  readonly decidedAt: number;
  /** Judgements completed, folded or not (a resume judges again what was in flight). */
  readonly judged: number;
  /** The farthest a started case ran ahead of the fold, in draws. */
  readonly maxAhead: number;
}

/** The run-ahead bound the simulation keeps, as `arena judge` does: four times the concurrency. */
const AHEAD = 4;

/**
 * Simulate `arena judge` with the sequential gate: cases started in draw
 * order, at most `concurrency` at once and fewer than `4 * concurrency`
 * draws past the fold, each taking a random time (failures slower), results
 * folded in draw order through a reorder buffer (or, the wrong way, as they
 * complete), optionally interrupted and resumed from the gate's persisted JSON.
 */
export function simulateGateRun(run: SimulatedRun): SimulatedOutcome {
  const total = run.values.length;
  const order = drawOrder(total, run.seed);
  const timing = createRng(run.timingSeed);
  let gate: SequentialGateState = sequentialGates(
    [{ gate: 'min_pass_rate', threshold: run.threshold }],
    { alpha: run.alpha, total, seed: run.seed },
  );
  let judged = 0;
  let maxAhead = 0;
  // the resume points still ahead, nearest first
  const resumes = [...(run.resumeAfter ?? [])].sort((a, b) => a - b);
  let start = 0;
  // one session until a resume point, then a fresh one from the persisted state
  for (;;) {
    const buffer = reorderBuffer<number>(start);
    const inFlight: { drawIndex: number; doneAt: number }[] = [];
    let nextDraw = start;
    let now = 0;
    let completedInSession = 0;
    const fill = (): void => {
      const foldedUpTo = run.foldIn === 'draw' ? buffer.next : start + completedInSession;
      while (
        inFlight.length < run.concurrency &&
        nextDraw < total &&
        (run.foldIn === 'completion' || nextDraw < foldedUpTo + AHEAD * run.concurrency)
      ) {
        maxAhead = Math.max(maxAhead, nextDraw - foldedUpTo);
        const value = run.values[order[nextDraw]!]!;
        const duration = (1 + timing.next()) * (value === 1 ? 1 : run.slowFailures);
        inFlight.push({ drawIndex: nextDraw, doneAt: now + duration });
        nextDraw++;
      }
    };
    fill();
    let interrupted = false;
    while (gate.decision === null && inFlight.length > 0) {
      let first = 0;
      for (let i = 1; i < inFlight.length; i++) {
        if (inFlight[i]!.doneAt < inFlight[first]!.doneAt) first = i;
      }
      const [done] = inFlight.splice(first, 1);
      now = done!.doneAt;
      judged++;
      completedInSession++;
      const value = run.values[order[done!.drawIndex]!]!;
      const ready = run.foldIn === 'draw' ? buffer.add(done!.drawIndex, value) : [value];
      for (const result of ready) {
        gate = foldSequentialGates(gate, {
          status: result === 1 ? 'passed' : 'failed',
          score: result,
        });
        if (resumes.length > 0 && gate.folded >= resumes[0]!) {
          interrupted = true;
          break;
        }
      }
      if (interrupted) break;
      fill();
    }
    if (!interrupted) break;
    // what is in flight is lost; the gates go through the store's JSON and back
    gate = decodeStoredJson(encodeStoredJson(gate)) as unknown as SequentialGateState;
    while (resumes.length > 0 && resumes[0]! <= gate.folded) resumes.shift();
    start = gate.folded;
  }
  if (gate.decision === null || gate.decidedAt === null) {
    throw new Error(`the gate did not decide after ${gate.folded} of ${total} results`);
  }
  return { decision: gate.decision, decidedAt: gate.decidedAt, judged, maxAhead };
}

/** Whether a decision is wrong for the file: PASS below the threshold, FAIL at or above it. */
export function isWrongDecision(
  decision: 'pass' | 'fail',
  values: readonly number[],
  threshold: number,
): boolean {
  const rate = values.reduce((sum, value) => sum + value, 0) / values.length;
  return decision === 'pass' ? rate < threshold : rate >= threshold;
}

/** A file of `total` cases of which exactly `passes` pass, shuffled by `seed`. */
export function fileWithPasses(total: number, passes: number, seed: number): number[] {
  const values = Array.from({ length: total }, (_, i): number => (i < passes ? 1 : 0));
  const order = drawOrder(total, (seed ^ 0x5bd1e995) >>> 0);
  return Array.from(order, (index) => values[index]!);
}
