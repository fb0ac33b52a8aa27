import { lastValueFrom, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { judgeMany } from '../../../src/actors/judging/judgeMany.js';
import { createModelJudge } from '../../../src/actors/judging/judges.js';
import type { JudgeContext } from '../../../src/domain/judge/context.js';
import type { JudgeResult } from '../../../src/domain/judge/result.js';
import type { ModelProvider, ModelRequest } from '../../../src/ports/model/modelProvider.js';
import { baseSettings, PASSED, subject } from './fixtures.js';

/** A provider that never answers on its own; it counts calls and aborts. */
function hangingProvider() {
  const stats = { calls: 0, aborted: 0 };
  const provider: ModelProvider = {
    name: 'openai',
    model: 'judge-model',
    invoke: (request: ModelRequest) =>
      new Promise((_, reject) => {
        stats.calls++;
        request.signal.addEventListener('abort', () => {
          stats.aborted++;
          reject(request.signal.reason);
        });
      }),
  };
  return { provider, stats };
}

describe('judgeMany over a stream of cases', () => {
  it('judges cases as a live source sends them, and completes after the source and the last judgement', async () => {
    const provider: ModelProvider = {
      name: 'openai',
      model: 'judge-model',
      invoke: async () => ({ content: PASSED }),
    };
    const judge = createModelJudge({ ...baseSettings, provider });
    const source = new Subject<JudgeContext>();
    const all = lastValueFrom(judgeMany(source, judge, { concurrency: 2 }).pipe(toArray()));
    for (let index = 0; index < 5; index++) source.next(subject({ caseId: `case-${index}` }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    source.next(subject({ caseId: 'late' }));
    source.complete();
    const results = await all;
    expect(results.map((result) => result.caseId).sort()).toEqual(
      ['case-0', 'case-1', 'case-2', 'case-3', 'case-4', 'late'].sort(),
    );
  });

  it('errors when the source errors, and cancels the judgements in flight', async () => {
    const { provider, stats } = hangingProvider();
    const judge = createModelJudge({ ...baseSettings, provider });
    const source = new Subject<JudgeContext>();
    const all = lastValueFrom(judgeMany(source, judge, { concurrency: 3 }));
    for (let index = 0; index < 5; index++) source.next(subject({ caseId: `case-${index}` }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    source.error(new Error('the cases file broke'));
    await expect(all).rejects.toThrow('the cases file broke');
    expect(stats).toEqual({ calls: 3, aborted: 3 });
  });

  it('errors with the input error when a case cannot be hashed for the cache, and cancels the rest', async () => {
    const { provider, stats } = hangingProvider();
    const judge = createModelJudge({ ...baseSettings, provider });
    const cache = new Map<string, JudgeResult>();
    const bad = subject({ caseId: 'bad', input: { score: Number.NaN } });
    const all = lastValueFrom(
      judgeMany([subject({ caseId: 'good' }), bad], judge, { concurrency: 2, cache }),
    );
    await expect(all).rejects.toMatchObject({ name: 'JudgeResponseError' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stats).toEqual({ calls: 1, aborted: 1 });
  });
});
