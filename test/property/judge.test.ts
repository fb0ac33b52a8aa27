import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { judgeMany } from '../../src/actors/judging/judgeMany.js';
import { createModelJudge } from '../../src/actors/judging/judges.js';
import { JudgeCancelledError } from '../../src/domain/judge/errors.js';
import type { JudgeResult } from '../../src/domain/judge/result.js';
import { addUsage, normaliseUsage, type TokenUsage } from '../../src/domain/judge/usage.js';
import type { ModelProvider, ModelRequest } from '../../src/ports/model/modelProvider.js';
import { ProviderHttpError, ProviderRateLimitError } from '../../src/ports/model/modelProvider.js';
import { runToQuiet, settle } from '../support/scheduler.js';
import { PASSED, subject } from '../unit/judge/fixtures.js';

const TIMEOUT_MS = 1000;
const settings = { name: 'accuracy', judgeVersion: '1', rubric: 'Be strict.', rubricVersion: '1' };

type Step =
  | { kind: 'valid' | 'invalid'; inputTokens: number; outputTokens: number }
  | { kind: 'error' }
  | { kind: 'hang' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('valid' as const, 'invalid' as const),
    inputTokens: fc.nat(1000),
    outputTokens: fc.nat(1000),
  }),
  fc.record({ kind: fc.constant('error' as const) }),
  fc.record({ kind: fc.constant('hang' as const) }),
);

/** Reject when `signal` aborts (what a real provider does). */
function abortable(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

describe('judge machine under any interleaving of responses, timeouts and a cancel', () => {
  it('never exceeds maxAttempts, never turns a cancel into a result, and sums the usage of answered attempts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(stepArbitrary, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.nat(6),
        fc.boolean(),
        async (scheduler, steps, maxAttempts, timeouts, withCancel) => {
          const timers = new SimulatedClock();
          const clock = { now: () => new Date(0), monotonicMs: () => timers.now() };
          let calls = 0;
          let answered: TokenUsage | null = null;
          const provider: ModelProvider = {
            name: 'openai',
            model: 'judge-model',
            invoke: (request: ModelRequest) => {
              const step = steps[calls % steps.length]!;
              calls++;
              if (step.kind === 'hang') return abortable(request.signal);
              const delivered = scheduler.schedule(
                Promise.resolve(step),
                `attempt ${calls}: ${step.kind}`,
              );
              return Promise.race([
                abortable(request.signal),
                delivered.then((value) => {
                  if (request.signal.aborted) throw request.signal.reason;
                  if (value.kind === 'error')
                    throw new ProviderHttpError('scripted', { status: 500 });
                  const usage = {
                    inputTokens: value.inputTokens,
                    outputTokens: value.outputTokens,
                  };
                  answered = addUsage(answered, normaliseUsage(usage));
                  return {
                    content: value.kind === 'valid' ? PASSED : '{"status":"passed"}',
                    usage,
                  };
                }),
              ]);
            },
          };
          const judge = createModelJudge({
            ...settings,
            provider,
            maxAttempts,
            timeoutMs: TIMEOUT_MS,
            clock,
            timers,
          });
          const controller = new AbortController();
          let outcome: { result: JudgeResult } | { error: unknown } | null = null;
          judge.evaluate(subject(), { signal: controller.signal }).then(
            (result) => {
              outcome = { result };
            },
            (error: unknown) => {
              outcome = { error };
            },
          );
          for (let index = 0; index < timeouts; index++) {
            scheduler
              .schedule(Promise.resolve(), `timeout ${index}`)
              .then(() => timers.increment(TIMEOUT_MS));
          }
          let cancelledBeforeEnd = false;
          if (withCancel) {
            scheduler.schedule(Promise.resolve(), 'cancel').then(() => {
              cancelledBeforeEnd = outcome === null;
              controller.abort();
            });
          }
          await runToQuiet(scheduler);
          while (outcome === null) {
            timers.increment(TIMEOUT_MS);
            await runToQuiet(scheduler);
          }
          const final = outcome as { result: JudgeResult } | { error: unknown };
          expect(calls).toBeLessThanOrEqual(maxAttempts);
          if (cancelledBeforeEnd) {
            expect('error' in final && final.error).toBeInstanceOf(JudgeCancelledError);
            return;
          }
          if (!('result' in final)) throw final.error;
          expect(final.result.attemptCount).toBeLessThanOrEqual(maxAttempts);
          expect(final.result.usage).toEqual(answered);
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** A retry-after hint as any provider might send it: none, small, huge, overflowing or nonsense. */
const retryAfterArbitrary: fc.Arbitrary<number | null> = fc.oneof(
  fc.constant(null),
  fc.nat(2000),
  fc.integer({ min: 0, max: 2 ** 33 }),
  fc.constantFrom(999_999_000, 2 ** 31 + 1000, Number.POSITIVE_INFINITY, Number.NaN, -1),
);

/** Longer than any backoff cap drawn below, so an attempt timeout is told apart from a retry wait. */
const ATTEMPT_TIMEOUT_MS = 5000;

describe('judge backoff under any retry-after values', () => {
  it('never exceeds maxAttempts, never waits longer than max_ms, and ends within (attempts - 1) × max_ms', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(retryAfterArbitrary, fc.constant('valid' as const)), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.integer({ min: 1, max: 5 }),
        fc.record({
          initialMs: fc.integer({ min: 1, max: 50 }),
          extraMs: fc.nat(950),
          multiplier: fc.double({ min: 1, max: 3, noNaN: true }),
          jitter: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        async (steps, maxAttempts, { initialMs, extraMs, multiplier, jitter }) => {
          const backoff = { initialMs, maxMs: initialMs + extraMs, multiplier, jitter };
          const simulated = new SimulatedClock();
          const delays: number[] = [];
          const timers = {
            setTimeout: (callback: () => void, delayMs: number) => {
              delays.push(delayMs);
              return simulated.setTimeout(callback, delayMs);
            },
            clearTimeout: (id: unknown) => simulated.clearTimeout(id as number),
          };
          const clock = { now: () => new Date(0), monotonicMs: () => simulated.now() };
          let calls = 0;
          const provider: ModelProvider = {
            name: 'openai',
            model: 'judge-model',
            invoke: async () => {
              const step = steps[calls % steps.length]!;
              calls++;
              if (step === 'valid') return { content: PASSED };
              throw new ProviderRateLimitError('slow down', { retryAfterMs: step });
            },
          };
          const judge = createModelJudge({
            ...settings,
            provider,
            maxAttempts,
            timeoutMs: ATTEMPT_TIMEOUT_MS,
            backoff,
            clock,
            timers,
          });
          let result: JudgeResult | null = null;
          judge.evaluate(subject()).then((value) => {
            result = value;
          });
          await settle();
          for (let retry = 1; retry < maxAttempts && result === null; retry++) {
            simulated.increment(backoff.maxMs);
            await settle();
          }
          const final = result as JudgeResult | null;
          expect(final).not.toBeNull();
          expect(calls).toBeLessThanOrEqual(maxAttempts);
          expect(final!.attemptCount).toBe(calls);
          for (const delayMs of delays) {
            expect(delayMs === ATTEMPT_TIMEOUT_MS || delayMs <= backoff.maxMs).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('judgeMany under any order of responses', () => {
  it('never runs more calls at once than its concurrency, and emits one result per case', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        async (scheduler, caseCount, concurrency) => {
          let inFlight = 0;
          let most = 0;
          const provider: ModelProvider = {
            name: 'openai',
            model: 'judge-model',
            invoke: () => {
              inFlight++;
              most = Math.max(most, inFlight);
              return scheduler.schedule(Promise.resolve({ content: PASSED })).finally(() => {
                inFlight--;
              });
            },
          };
          const judge = createModelJudge({ ...settings, provider });
          const cases = Array.from({ length: caseCount }, (_, index) =>
            subject({ caseId: `case-${index}` }),
          );
          const all = lastValueFrom(judgeMany(cases, judge, { concurrency }).pipe(toArray()));
          await scheduler.waitFor(all);
          const results = await all;
          expect(most).toBeLessThanOrEqual(concurrency);
          expect(results.map((result) => result.caseId).sort()).toEqual(
            cases.map((context) => context.caseId).sort(),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('stops every call in flight when unsubscribed at any point', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 4 }),
        fc.nat(10),
        async (scheduler, caseCount, concurrency, stopAfter) => {
          const live = new Set<AbortSignal>();
          const provider: ModelProvider = {
            name: 'openai',
            model: 'judge-model',
            invoke: (request) => {
              live.add(request.signal);
              return Promise.race([
                abortable(request.signal),
                scheduler.schedule(Promise.resolve({ content: PASSED })),
              ]).finally(() => live.delete(request.signal));
            },
          };
          const judge = createModelJudge({ ...settings, provider });
          const cases = Array.from({ length: caseCount }, (_, index) =>
            subject({ caseId: `case-${index}` }),
          );
          let seen = 0;
          const subscription = judgeMany(cases, judge, { concurrency }).subscribe(() => {
            seen++;
          });
          for (let step = 0; step < stopAfter && scheduler.count() > 0; step++)
            await scheduler.waitOne();
          subscription.unsubscribe();
          const seenAtStop = seen;
          await scheduler.waitAll();
          await new Promise((resolve) => setImmediate(resolve));
          expect([...live].every((signal) => signal.aborted)).toBe(true);
          expect(live.size).toBe(0);
          expect(seen).toBe(seenAtStop);
        },
      ),
      { numRuns: 100 },
    );
  });
});
