import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { judgeMany } from '../../../src/actors/judging/judgeMany.js';
import { createModelJudge } from '../../../src/actors/judging/judges.js';
import { JudgeConfigurationError } from '../../../src/domain/judge/errors.js';
import type { JudgeResult } from '../../../src/domain/judge/result.js';
import type { ModelProvider, ModelRequest } from '../../../src/ports/model/modelProvider.js';
import { baseSettings, PASSED, subject } from './fixtures.js';

/** A provider that answers after `delayMs`, counting calls in flight and aborts. */
function countingProvider(delayMs: number, content = PASSED) {
  const stats = { calls: 0, inFlight: 0, most: 0, aborted: 0 };
  const provider: ModelProvider = {
    name: 'openai',
    model: 'judge-model',
    invoke: (request: ModelRequest) =>
      new Promise((resolve, reject) => {
        stats.calls++;
        stats.inFlight++;
        stats.most = Math.max(stats.most, stats.inFlight);
        const timer = setTimeout(() => {
          stats.inFlight--;
          resolve({ content });
        }, delayMs);
        request.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          stats.inFlight--;
          stats.aborted++;
          reject(request.signal.reason);
        });
      }),
  };
  return { provider, stats };
}

const cases = (count: number) =>
  Array.from({ length: count }, (_, index) => subject({ caseId: `case-${index}` }));

describe('judgeMany', () => {
  it('judges every case, never running more than the concurrency limit', async () => {
    const { provider, stats } = countingProvider(5);
    const judge = createModelJudge({ ...baseSettings, provider });
    const results = await lastValueFrom(
      judgeMany(cases(20), judge, { concurrency: 4 }).pipe(toArray()),
    );
    expect(results.map((result) => result.caseId).sort()).toEqual(
      cases(20)
        .map((context) => context.caseId)
        .sort(),
    );
    expect(stats.most).toBe(4);
  });

  it('emits results as they finish, not in input order', async () => {
    const provider: ModelProvider = {
      name: 'openai',
      model: 'judge-model',
      invoke: (request) =>
        new Promise((resolve) =>
          setTimeout(
            () => resolve({ content: PASSED }),
            request.metadata['arena.evaluation.case_id'] === 'case-0' ? 30 : 1,
          ),
        ),
    };
    const judge = createModelJudge({ ...baseSettings, provider });
    const results = await lastValueFrom(
      judgeMany(cases(3), judge, { concurrency: 3 }).pipe(toArray()),
    );
    expect(results.at(-1)?.caseId).toBe('case-0');
  });

  it('stops every call in flight when unsubscribed', async () => {
    const { provider, stats } = countingProvider(10_000);
    const judge = createModelJudge({ ...baseSettings, provider });
    const subscription = judgeMany(cases(10), judge, { concurrency: 3 }).subscribe();
    await new Promise((resolve) => setTimeout(resolve, 10));
    subscription.unsubscribe();
    expect(stats).toMatchObject({ calls: 3, inFlight: 0, aborted: 3 });
  });

  it('caches by judge identity and prompt, and never caches errors', async () => {
    const { provider, stats } = countingProvider(1);
    const judge = createModelJudge({ ...baseSettings, provider });
    const cache = new Map<string, JudgeResult>();
    const once = [subject()];
    await lastValueFrom(judgeMany(once, judge, { concurrency: 1, cache }));
    const again = await firstValueFrom(judgeMany(once, judge, { concurrency: 1, cache }));
    expect(stats.calls).toBe(1);
    expect(again.status).toBe('passed');
    const otherJudge = createModelJudge({ ...baseSettings, judgeVersion: '2', provider });
    await lastValueFrom(judgeMany(once, otherJudge, { concurrency: 1, cache }));
    expect(stats.calls).toBe(2);

    const failing = countingProvider(1, 'not json');
    const failingJudge = createModelJudge({
      ...baseSettings,
      provider: failing.provider,
      maxAttempts: 1,
    });
    const errorCache = new Map<string, JudgeResult>();
    await lastValueFrom(judgeMany(once, failingJudge, { concurrency: 1, cache: errorCache }));
    await lastValueFrom(judgeMany(once, failingJudge, { concurrency: 1, cache: errorCache }));
    expect(errorCache.size).toBe(0);
    expect(failing.stats.calls).toBe(2);
  });

  it('stops early judgements when a consumer takes only some results', async () => {
    const { provider, stats } = countingProvider(5);
    const judge = createModelJudge({ ...baseSettings, provider });
    await lastValueFrom(judgeMany(cases(10), judge, { concurrency: 2 }).pipe(take(1)));
    expect(stats.inFlight).toBe(0);
  });

  it('rejects a concurrency that is not a positive integer', () => {
    const { provider } = countingProvider(1);
    const judge = createModelJudge({ ...baseSettings, provider });
    expect(() => judgeMany([], judge, { concurrency: 0 })).toThrow(JudgeConfigurationError);
  });
});
