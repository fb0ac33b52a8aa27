import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createModelPauses } from '../../src/actors/judging/modelPauses.js';
import { pauseWindowMs } from '../../src/domain/judge/modelPauseRule.js';
import {
  type JudgeQueue,
  type ModelPause,
  modelPauseMaxAgeMs,
} from '../../src/ports/queue/judgeQueue.js';

/** A queue whose pause feed the test drives: what another worker, or a forger, publishes. */
function pauseFeed() {
  const listeners = new Set<(pause: ModelPause) => void>();
  const queue = {
    announcePause: () => undefined,
    onPause: (listener: (pause: ModelPause) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as JudgeQueue;
  return {
    queue,
    deliver: (pause: ModelPause) => {
      for (const listener of listeners) listener(pause);
    },
  };
}

// any number a message may carry once it is a number: past, present, far future, fractions
const untilOffset = fc.oneof(
  fc.integer({ min: -10_000, max: 10_000 }),
  fc.constantFrom(1e12, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER),
  fc.double({ min: -1e6, max: 1e15, noNaN: true }),
);

const step = fc.record({
  elapsedMs: fc.integer({ min: 0, max: 3_000 }),
  key: fc.constantFrom('a', 'b'),
  // own: this worker met a 429 (pause); else it arrives on the queue (another worker or a forger)
  own: fc.boolean(),
  untilOffsetMs: untilOffset,
});

describe('model pauses, over any sequence of real and forged pauses', () => {
  it('the effective pause is never longer than the cap, ends when the latest pause says, and a repeat never pushes it past the cap after the first pause of its window', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 5_000 }),
        (steps, capMs) => {
          let now = 1_700_000_000_000;
          const { queue, deliver } = pauseFeed();
          const pauses = createModelPauses({ queue, now: () => now });
          const latest = new Map<string, { untilMs: number; windowStartMs: number }>();
          for (const { elapsedMs, key, own, untilOffsetMs } of steps) {
            now += elapsedMs;
            const untilMs = now + untilOffsetMs;
            if (own) pauses.pause(key, untilMs);
            else deliver({ key, untilMs });
            // no judge waited yet: a window lasts as long as the queue keeps a pause
            const previous = latest.get(key);
            const inWindow =
              previous !== undefined && now - previous.windowStartMs < modelPauseMaxAgeMs;
            latest.set(key, { untilMs, windowStartMs: inWindow ? previous.windowStartMs : now });
            for (const model of ['a', 'b']) {
              const leftMs = Math.max(0, pauses.pausedUntil(model, capMs) - now);
              expect(leftMs).toBeLessThanOrEqual(capMs);
              // the rule: the latest pause for the model, cut to the cap from its window's first pause
              const last = latest.get(model);
              const endsAt = last ? Math.min(last.untilMs, last.windowStartMs + capMs) : 0;
              expect(leftMs).toBe(Math.max(0, endsAt - now));
            }
          }
          pauses.dispose();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a pause that has ended is forgotten once its window closes: memory holds only pauses whose window is open', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 5_000 }),
        async (steps, capMs) => {
          let now = 1_700_000_000_000;
          const { queue, deliver } = pauseFeed();
          const pauses = createModelPauses({ queue, now: () => now });
          // a judge with this cap waits on the board: pauses are held for at most the cap
          await pauses.waitFor('none', capMs, new AbortController().signal);
          for (const { elapsedMs, key, own, untilOffsetMs } of steps) {
            now += elapsedMs;
            if (own) pauses.pause(key, now + untilOffsetMs);
            else deliver({ key, untilMs: now + untilOffsetMs });
            expect(pauses.heldCount()).toBeLessThanOrEqual(2);
          }
          // kept while its window lasts (a pause forgotten earlier would open a new window)
          now += pauseWindowMs(capMs);
          expect(pauses.heldCount()).toBe(0);
          pauses.dispose();
        },
      ),
      { numRuns: 100 },
    );
  });
});
