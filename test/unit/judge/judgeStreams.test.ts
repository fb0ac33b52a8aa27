import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fanOutPulled } from '../../../src/actors/judging/fanOutPulled.js';
import { judgeMany } from '../../../src/actors/judging/judgeMany.js';
import type { Judge } from '../../../src/actors/judging/judges.js';
import { judgeTrials } from '../../../src/actors/judging/judgeTrials.js';
import { agreementReport, agreementReporter } from '../../../src/cli/commands/judgePanelReport.js';
import {
  fleissKappa,
  ratingAgreement,
  ratingAgreementAccumulator,
} from '../../../src/domain/judge/agreement.js';
import { createCaseKeyDigests } from '../../../src/domain/judge/caseKeyDigests.js';
import type { JudgeContext } from '../../../src/domain/judge/context.js';
import type { JudgeResult, JudgeStatus } from '../../../src/domain/judge/result.js';
import { judgeSettings } from '../../../src/domain/judge/settings.js';
import type { TrialJudgeResult } from '../../../src/domain/judge/trials.js';
import { baseSettings, subject } from './fixtures.js';

/** A judge that answers on the next macrotask, its verdict from the case id's number. */
function quickJudge(): Judge {
  return {
    settings: judgeSettings(baseSettings),
    model: null,
    identity: 'quick',
    promptSha256: () => 'sha',
    evaluate: (context) =>
      new Promise((resolve) =>
        setImmediate(() =>
          resolve(resultOf(context, Number(context.caseId) % 3 ? 'passed' : 'failed')),
        ),
      ),
  };
}

function resultOf(context: JudgeContext, status: JudgeStatus): JudgeResult {
  return {
    evaluationRunId: context.evaluationRunId,
    caseId: context.caseId,
    subjectId: context.subjectId,
    judge: 'quick',
    judgeVersion: '1',
    promptSha256: 'sha',
    rubricVersion: '1',
    status,
    score: status === 'passed' ? 1 : 0,
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

/** `count` cases read one at a time, counting how many were read. */
function countedCases(count: number): { cases: AsyncIterable<JudgeContext>; read: () => number } {
  let read = 0;
  async function* cases(): AsyncGenerator<JudgeContext> {
    for (let index = 0; index < count; index++) {
      read++;
      yield subject({ caseId: String(index), subjectId: String(index) });
    }
  }
  return { cases: cases(), read: () => read };
}

describe('judging a stream of cases', () => {
  it('judgeMany reads an async iterable of cases no further ahead than the judgements in flight', async () => {
    const { cases, read } = countedCases(2000);
    let judged = 0;
    let mostAhead = 0;
    await new Promise<void>((resolve, reject) =>
      judgeMany(cases, quickJudge(), { concurrency: 8 }).subscribe({
        next: () => {
          judged++;
          mostAhead = Math.max(mostAhead, read() - judged);
        },
        error: reject,
        complete: resolve,
      }),
    );
    expect(read()).toBe(2000);
    expect(judged).toBe(2000);
    expect(mostAhead).toBeLessThanOrEqual(8);
  });

  it('judgeTrials takes the trials of a case one after the other, reading ahead no more than it judges', async () => {
    const { cases, read } = countedCases(300);
    const seen: TrialJudgeResult[] = [];
    let mostAhead = 0;
    await new Promise<void>((resolve, reject) =>
      judgeTrials(cases, quickJudge(), { concurrency: 4, trials: 3 }).subscribe({
        next: (result) => {
          seen.push(result as TrialJudgeResult);
          mostAhead = Math.max(mostAhead, read() * 3 - seen.length);
        },
        error: reject,
        complete: resolve,
      }),
    );
    expect(seen).toHaveLength(900);
    // a case read is 3 judgements: at most the 4 in flight and the rest of the case being started
    expect(mostAhead).toBeLessThanOrEqual(4 + 3);
    const report = agreementReport(seen, { trials: 3 });
    expect(report.judged).toBe('900 judgements (300 cases × 3 trials)');
  });

  it('fanOutPulled stops reading when unsubscribed, and a failing source errors the stream', async () => {
    const { cases, read } = countedCases(1000);
    // tasks settle only when the test says so: no timing decides how far the reader got
    const pending: (() => void)[] = [];
    const flush = async (): Promise<void> => {
      for (let turn = 0; turn < 20; turn++) await Promise.resolve();
    };
    const settleOne = async (): Promise<void> => {
      await flush();
      pending.shift()?.();
      await flush();
    };
    const seen: string[] = [];
    const subscription = fanOutPulled(
      cases,
      2,
      (context) => new Promise<string>((resolve) => pending.push(() => resolve(context.caseId))),
    ).subscribe((caseId) => seen.push(caseId));
    for (let settled = 0; settled < 5; settled++) await settleOne();
    expect(seen).toEqual(['0', '1', '2', '3', '4']);
    expect(read()).toBe(7);
    subscription.unsubscribe();
    const readAtStop = read();
    for (let settled = 0; settled < 5; settled++) await settleOne();
    expect(read()).toBe(readAtStop);
    expect(seen).toHaveLength(5);
    async function* failing(): AsyncGenerator<number> {
      yield 1;
      throw new Error('cannot read');
    }
    await expect(
      lastValueFrom(fanOutPulled(failing(), 2, async (item) => item).pipe(toArray())),
    ).rejects.toThrow('cannot read');
  });
});

describe('folded reports', () => {
  it('ratingAgreementAccumulator gives what Fleiss kappa of the whole table gives', () => {
    const rows = [
      ['passed', 'passed', 'failed'],
      ['failed', 'failed', 'failed'],
      ['passed', null, 'passed'],
      ['skipped', 'passed', 'passed'],
      ['passed', 'passed', 'passed'],
    ];
    const folded = ratingAgreementAccumulator();
    for (const row of rows) folded.add(row);
    const agreement = folded.agreement();
    const table = [
      [1, 2, 0],
      [3, 0, 0],
      [0, 2, 1],
      [0, 3, 0],
    ];
    expect(agreement.kappa).toBeCloseTo(fleissKappa(table)!, 12);
    expect(agreement).toEqual(ratingAgreement(rows));
    expect(agreement).toMatchObject({
      subjects: 4,
      leftOut: 1,
      categories: ['failed', 'passed', 'skipped'],
    });
  });

  it('agreementReporter holds a case only until its trials are in', () => {
    const reporter = agreementReporter({ trials: 2, minAgreement: 0.5 });
    const base = resultOf(subject(), 'passed');
    for (let index = 0; index < 10_000; index++) {
      for (const trial of [1, 2]) {
        reporter.add({ ...base, caseId: String(index), trial } as TrialJudgeResult);
      }
    }
    const report = reporter.report();
    expect(report.lines[0]).toContain('the same verdict in every trial: 10000 of 10000 cases');
    expect(report.failedGates).toEqual([
      'stability over trials is n/a (all verdicts in one category, where kappa is 0/0), so min_agreement 0.5 cannot hold',
    ]);
  });
});

describe('createCaseKeyDigests', () => {
  it('tells a repeated key from a new one, at 16 to 32 bytes a key', () => {
    const seen = createCaseKeyDigests();
    const count = 200_000;
    let added = 0;
    for (let index = 0; index < count; index++) {
      if (seen.add(JSON.stringify(['run', `case-${index}`, `case-${index}`]))) added++;
    }
    expect(added).toBe(count);
    expect(seen.add(JSON.stringify(['run', 'case-7', 'case-7']))).toBe(false);
    expect(seen.add(JSON.stringify(['run', 'case-7', 'other']))).toBe(true);
    expect(seen.size()).toBe(count + 1);
    // bounded by the count, whatever the keys' length
    expect(seen.bytes()).toBeLessThanOrEqual(32 * (count + 1));
    expect(seen.bytes()).toBeGreaterThanOrEqual(16 * (count + 1));
  });
});
