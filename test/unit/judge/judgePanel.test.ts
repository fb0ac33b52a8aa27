import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { createJudgePanel } from '../../../src/actors/judging/judgePanel.js';
import { createModelJudge, type Judge } from '../../../src/actors/judging/judges.js';
import { judgeTrials } from '../../../src/actors/judging/judgeTrials.js';
import { agreementReport } from '../../../src/cli/commands/judgePanelReport.js';
import { JudgeConfigurationError } from '../../../src/domain/judge/errors.js';
import type { PanelJudgeResult } from '../../../src/domain/judge/panel.js';
import type { JudgeResult } from '../../../src/domain/judge/result.js';
import type { TrialJudgeResult } from '../../../src/domain/judge/trials.js';
import { judgePanelMachine, type PanelMemberInput } from '../../../src/machines/judgePanel.js';
import { baseSettings, PASSED, scriptedProvider, subject } from './fixtures.js';

const FAILED = JSON.stringify({
  status: 'failed',
  score: 0,
  label: 'incorrect',
  explanation: null,
  evidence: ['not 4'],
});

function judge(name: string, contents: string[], rubric = baseSettings.rubric): Judge {
  return createModelJudge({
    ...baseSettings,
    name,
    rubric,
    maxAttempts: 1,
    provider: scriptedProvider(contents.map((content) => ({ content }))),
  });
}

const majority = { rule: 'majority' as const, minVotes: 2, threshold: null };

describe('judge panel', () => {
  it('gives a tie its own error type and keeps both members', async () => {
    const panel = createJudgePanel({
      name: 'pair',
      members: [judge('yes', [PASSED]), judge('no', [FAILED])],
      rule: majority,
      clock: baseSettings.clock,
    });
    const result = await panel.evaluate(subject());
    expect(result).toMatchObject({
      judge: 'pair',
      status: 'error',
      errorType: 'PanelTieError',
      score: null,
      attemptCount: 2,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(result.panel.vote).toEqual({ votes: 2, passed: 1, failed: 1, skipped: 0, errors: 0 });
    expect(result.panel.agreement).toBe(0);
    expect(result.panel.members.map((member) => [member.judge, member.status])).toEqual([
      ['yes', 'passed'],
      ['no', 'failed'],
    ]);
    expect(JSON.stringify(result)).not.toContain('not 4');
  });

  it('sums its members usage and cost, and passes by the mean score rule', async () => {
    const provider = (content: string, costUsd: number) =>
      scriptedProvider([{ content, costUsd, usage: { inputTokens: 10, outputTokens: 2 } }]);
    const member = (name: string, content: string, costUsd: number) =>
      createModelJudge({ ...baseSettings, name, provider: provider(content, costUsd) });
    const panel = createJudgePanel({
      name: 'mean',
      members: [member('a', PASSED, 0.01), member('b', FAILED, 0.02)],
      rule: { rule: 'mean_score', minVotes: 2, threshold: 0.5 },
    });
    const result = await panel.evaluate(subject());
    expect(result.status).toBe('passed');
    expect(result.score).toBe(0.5);
    expect(result.costUsd).toBeCloseTo(0.03);
    expect(result.usage?.inputTokens).toBe(20);
  });

  it("keeps each member's own self-evaluation check: a rejected member does not vote", async () => {
    const own = createModelJudge({
      ...baseSettings,
      name: 'own',
      provider: scriptedProvider([{ content: PASSED }], 'target-model'),
    });
    const panel = createJudgePanel({
      name: 'pair',
      members: [own, judge('other', [FAILED])],
      rule: { rule: 'majority', minVotes: 1, threshold: null },
    });
    const result = await panel.evaluate(subject());
    expect(result.panel.members.map((member) => [member.status, member.errorType])).toEqual([
      ['error', 'SelfEvaluationRejected'],
      ['failed', null],
    ]);
    expect(result.status).toBe('failed');
    expect(result.panel.vote).toEqual({ votes: 1, passed: 0, failed: 1, skipped: 0, errors: 1 });
    expect(result.panel.agreement).toBeNull();
  });

  it('fails with the root cause when a member rejects, and stops the other members', async () => {
    let otherAborted = false;
    const machine = judgePanelMachine.provide({
      actors: {
        member: fromPromise<JudgeResult, PanelMemberInput>(({ input, signal }) => {
          if (input.member === 'broken') {
            return Promise.reject(new JudgeConfigurationError('bad member input'));
          }
          signal.addEventListener('abort', () => {
            otherAborted = true;
          });
          return new Promise<JudgeResult>(() => {});
        }),
      },
    });
    const actor = createActor(machine, {
      input: {
        subject: subject(),
        panel: { name: 'p', judgeVersion: '1', rubricVersion: '1', promptSha256: 'x' },
        members: ['waiting', 'broken'],
        rule: majority,
        clock: { now: () => new Date(0), monotonicMs: () => 0 },
      },
    });
    actor.start();
    await new Promise((resolve) => setImmediate(resolve));
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('failed');
    expect(snapshot.output).toBeNull();
    expect((snapshot.context.failure as Error).message).toBe('bad member input');
    expect(otherAborted).toBe(true);
  });

  it.each([
    [[judge('a', [PASSED])], 'a panel needs at least two members, got 1'],
    [[judge('a', [PASSED]), judge('a', [PASSED])], "judge 'a' is a member twice"],
    [[judge('a', [PASSED]), judge('b', [PASSED], 'Other rubric.')], "'b' has another"],
  ])('refuses a panel it cannot convene (%#)', (members, message) => {
    expect(() => createJudgePanel({ name: 'p', members, rule: majority })).toThrow(
      JudgeConfigurationError,
    );
    expect(() => createJudgePanel({ name: 'p', members, rule: majority })).toThrow(message);
  });

  it('refuses a min_votes above its members', () => {
    expect(() =>
      createJudgePanel({
        name: 'p',
        members: [judge('a', []), judge('b', [])],
        rule: { ...majority, minVotes: 3 },
      }),
    ).toThrow('minVotes must be between 1 and the 2 members, got 3');
  });
});

describe('judgeTrials', () => {
  it('judges each case once per trial, its trials one after the other, with its trial number, and never from a cache', async () => {
    const unstable = judge('unstable', [PASSED, FAILED, PASSED, PASSED, PASSED, PASSED]);
    const cases = [subject({ caseId: 'a' }), subject({ caseId: 'b' })];
    const results = (await lastValueFrom(
      judgeTrials(cases, unstable, { concurrency: 1, trials: 3 }).pipe(toArray<JudgeResult>()),
    )) as TrialJudgeResult[];
    expect(results.map((result) => [result.caseId, result.trial, result.status])).toEqual([
      ['a', 1, 'passed'],
      ['a', 2, 'failed'],
      ['a', 3, 'passed'],
      ['b', 1, 'passed'],
      ['b', 2, 'passed'],
      ['b', 3, 'passed'],
    ]);
    const report = agreementReport(results, { trials: 3, minAgreement: 0.5 });
    expect(report.lines).toEqual([
      "stability over 3 trials: Fleiss' kappa -0.2 over 2 cases (categories failed, passed); the same verdict in every trial: 1 of 2 cases",
    ]);
    expect(report.failedGates).toEqual(['stability over trials -0.2 is below min_agreement 0.5']);
    expect(() =>
      judgeTrials(cases, unstable, { concurrency: 1, trials: 2, cache: new Map() }),
    ).toThrow('trials are independent judgements');
    expect(() => judgeTrials(cases, unstable, { concurrency: 1, trials: 0 })).toThrow(
      'trials must be a positive integer, got 0',
    );
  });

  it('is plain judgeMany with one trial: no trial numbers', async () => {
    const results = await lastValueFrom(
      judgeTrials([subject()], judge('once', [PASSED]), { concurrency: 1, trials: 1 }).pipe(
        toArray(),
      ),
    );
    expect(results).toHaveLength(1);
    expect('trial' in results[0]!).toBe(false);
  });
});

describe('agreementReport', () => {
  it("prints each member's pass rate and the members' kappa, and gates on it", async () => {
    const panel = createJudgePanel({
      name: 'pair',
      members: [judge('a', [PASSED, PASSED]), judge('b', [PASSED, FAILED])],
      rule: { rule: 'unanimous', minVotes: 2, threshold: null },
    });
    const results: PanelJudgeResult[] = [
      await panel.evaluate(subject({ caseId: 'one' })),
      await panel.evaluate(subject({ caseId: 'two' })),
    ];
    expect(results.map((result) => result.status)).toEqual(['passed', 'failed']);
    const report = agreementReport(results, { trials: 1, minAgreement: 0.1 });
    expect(report.lines).toEqual([
      'member a: passed 2, failed 0, skipped 0, error 0; pass rate 1 (95% CI 0.3424-1, n 2)',
      'member b: passed 1, failed 1, skipped 0, error 0; pass rate 0.5 (95% CI 0.0945-0.9055, n 2)',
      "agreement of the members: Fleiss' kappa -0.3333 over 2 judgements (categories failed, passed)",
    ]);
    expect(report.failedGates).toEqual([
      'agreement of the members -0.3333 is below min_agreement 0.1',
    ]);
  });
});
