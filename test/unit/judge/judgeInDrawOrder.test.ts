import { describe, expect, it } from 'vitest';
import { judgeInDrawOrder } from '../../../src/actors/judging/judgeInDrawOrder.js';
import type { Judge } from '../../../src/actors/judging/judges.js';
import type { JudgeContext } from '../../../src/domain/judge/context.js';
import type { JudgeResult } from '../../../src/domain/judge/result.js';
import { judgeSettings } from '../../../src/domain/judge/settings.js';
import { baseSettings, subject } from './fixtures.js';

/** A judge whose judgements end when the test says: each started case waits for `answer(caseId)`. */
function heldJudge() {
  const started: string[] = [];
  const aborted: string[] = [];
  const pending = new Map<string, (result: JudgeResult) => void>();
  const judge: Judge = {
    settings: judgeSettings(baseSettings),
    model: null,
    identity: 'held',
    promptSha256: () => 'sha',
    evaluate: (context, options) =>
      new Promise<JudgeResult>((resolve, reject) => {
        started.push(context.caseId);
        const onAbort = (): void => {
          pending.delete(context.caseId);
          aborted.push(context.caseId);
          reject(new Error('cancelled'));
        };
        pending.set(context.caseId, (result) => {
          options?.signal?.removeEventListener('abort', onAbort);
          resolve(result);
        });
        options?.signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
  const answer = async (caseId: string, passed = true): Promise<void> => {
    pending.get(caseId)!(resultOf(caseId, passed));
    pending.delete(caseId);
    // let the pipeline take the result and start what it can
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  return { judge, started, aborted, answer };
}

function resultOf(caseId: string, passed: boolean): JudgeResult {
  return {
    evaluationRunId: 'run-1',
    caseId,
    subjectId: caseId,
    judge: 'held',
    judgeVersion: '1',
    promptSha256: 'sha',
    rubricVersion: '1',
    status: passed ? 'passed' : 'failed',
    score: passed ? 1 : 0,
    label: null,
    evidence: [],
    model: null,
    usage: null,
    costUsd: null,
    durationMs: 0,
    attemptCount: 1,
    errorType: null,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

const caseAt = async (fileIndex: number): Promise<JudgeContext> =>
  subject({ caseId: `c${fileIndex}`, subjectId: `c${fileIndex}` });

const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('judgeInDrawOrder', () => {
  it('starts cases in draw order and folds their results in draw order, not as they complete', async () => {
    const { judge, started, answer } = heldJudge();
    const folded: [string, number][] = [];
    const order = Uint32Array.from([2, 0, 3, 1]);
    const done = judgeInDrawOrder(judge, {
      order,
      caseAt,
      concurrency: 4,
      aheadLimit: 16,
      fold: (result, drawIndex) => {
        folded.push([result.caseId, drawIndex]);
        return false;
      },
    });
    await settle();
    expect(started).toEqual(['c2', 'c0', 'c3', 'c1']);
    await answer('c1');
    await answer('c3');
    expect(folded).toEqual([]);
    await answer('c2');
    expect(folded).toEqual([['c2', 0]]);
    await answer('c0');
    expect(folded).toEqual([
      ['c2', 0],
      ['c0', 1],
      ['c3', 2],
      ['c1', 3],
    ]);
    expect(await done).toEqual({ judged: 4, folded: 4, decided: false });
  });

  it('starts no case aheadLimit draws past the fold while an earlier case is slow', async () => {
    const { judge, started, answer } = heldJudge();
    const order = Uint32Array.from({ length: 20 }, (_, i) => i);
    void judgeInDrawOrder(judge, {
      order,
      caseAt,
      concurrency: 2,
      aheadLimit: 4,
      fold: () => false,
    });
    await settle();
    expect(started).toEqual(['c0', 'c1']);
    await answer('c1');
    await answer('c2');
    await answer('c3');
    // c0 holds the fold at 0: draws 0..3 may run, draw 4 waits
    expect(started).toEqual(['c0', 'c1', 'c2', 'c3']);
    await answer('c0');
    expect(started).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
  });

  it('cancels the judgements in flight once the fold decides, and starts nothing after', async () => {
    const { judge, started, aborted, answer } = heldJudge();
    const order = Uint32Array.from({ length: 10 }, (_, i) => i);
    const done = judgeInDrawOrder(judge, {
      order,
      caseAt,
      concurrency: 3,
      aheadLimit: 12,
      fold: (_result, drawIndex) => drawIndex === 1,
    });
    await settle();
    await answer('c2');
    await answer('c0');
    await answer('c1');
    expect(await done).toEqual({ judged: 3, folded: 2, decided: true });
    await settle();
    expect(aborted.sort()).toEqual(started.filter((id) => !['c0', 'c1', 'c2'].includes(id)).sort());
    expect(started.length).toBeLessThanOrEqual(5);
  });

  it('rejects with the reason when it is interrupted', async () => {
    const { judge, aborted } = heldJudge();
    const interrupt = new AbortController();
    const done = judgeInDrawOrder(judge, {
      order: Uint32Array.from([0, 1]),
      caseAt,
      concurrency: 2,
      aheadLimit: 8,
      fold: () => false,
      signal: interrupt.signal,
    });
    await settle();
    interrupt.abort(new Error('interrupted'));
    await expect(done).rejects.toThrow('interrupted');
    expect(aborted.sort()).toEqual(['c0', 'c1']);
  });
});
