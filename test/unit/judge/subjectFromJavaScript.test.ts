import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { judgeMany } from '../../../src/actors/judging/judgeMany.js';
import { createJudgePanel } from '../../../src/actors/judging/judgePanel.js';
import { createModelJudge } from '../../../src/actors/judging/judges.js';
import { checkJudgeSubject, type JudgeContext } from '../../../src/domain/judge/context.js';
import { JudgeSubjectError } from '../../../src/domain/judge/errors.js';
import { fixedClock } from '../../../src/ports/runtime/clock.js';
import { baseSettings, PASSED, scriptedProvider } from './fixtures.js';

/** A subject as a JavaScript caller writes it: no types to say what it must hold. */
const fromJavaScript = (value: Record<string, unknown>) => value as unknown as JudgeContext;
const minimal = { evaluationRunId: 'r1', caseId: 'c1', input: '2+2', candidateOutput: '4' };

describe('a judge subject from JavaScript gets the errors a cases file gets', () => {
  it('judges a subject without observation or subjectId, as a cases line without them', async () => {
    const judge = createModelJudge({
      ...baseSettings,
      provider: scriptedProvider([{ content: PASSED }]),
    });
    const results = await lastValueFrom(
      judgeMany([fromJavaScript(minimal)], judge, { concurrency: 1, cache: new Map() }).pipe(
        toArray(),
      ),
    );
    expect(results.map((result) => [result.caseId, result.subjectId, result.status])).toEqual([
      ['c1', 'c1', 'passed'],
    ]);
  });

  it('names a snake_case key by its camelCase spelling, and every missing field', async () => {
    const judge = createModelJudge({ ...baseSettings, provider: scriptedProvider([]) });
    const subject = fromJavaScript({
      evaluation_run_id: 'r1',
      caseId: 'c1',
      input: 'x',
      candidate_output: '4',
    });
    const error = await lastValueFrom(judgeMany([subject], judge, { concurrency: 1 })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(JudgeSubjectError);
    expect((error as Error).message).toBe(
      'judge subject "c1": evaluationRunId must be a non-empty string, got nothing; ' +
        'candidateOutput is missing (the output to judge); ' +
        'unknown key "evaluation_run_id" (did you mean "evaluationRunId"?); ' +
        'unknown key "candidate_output" (did you mean "candidateOutput"?)',
    );
  });

  it('says what an observation must hold', async () => {
    const judge = createModelJudge({ ...baseSettings, provider: scriptedProvider([]) });
    await expect(
      judge.evaluate(fromJavaScript({ ...minimal, observation: 'gpt-4o' })),
    ).rejects.toThrow(
      'judge subject "c1": observation must be an object ({ model?, provider?, agentName?, details? }), got "gpt-4o"',
    );
    await expect(
      judge.evaluate(fromJavaScript({ ...minimal, observation: { model: 4, agent_name: 'a' } })),
    ).rejects.toThrow(
      'judge subject "c1": observation.model must be a string or null, got 4; unknown key "observation.agent_name" (did you mean "observation.agentName"?)',
    );
  });

  it('refuses what is not a subject at all, in a judge and in a panel', async () => {
    const member = createModelJudge({ ...baseSettings, provider: scriptedProvider([]) });
    const other = createModelJudge({
      ...baseSettings,
      name: 'other',
      provider: scriptedProvider([]),
    });
    const panel = createJudgePanel({
      ...baseSettings,
      name: 'panel',
      members: [member, other],
      rule: { rule: 'majority', minVotes: 2, threshold: null },
    });
    for (const judge of [member, panel]) {
      await expect(judge.evaluate(fromJavaScript(['c1'] as never))).rejects.toThrow(
        'a judge subject must be an object ({ evaluationRunId, caseId, input, candidateOutput, observation? }), got a list',
      );
    }
  });

  it('says a panel without a rule needs one', () => {
    const members = ['one', 'two'].map((name) =>
      createModelJudge({ ...baseSettings, name, provider: scriptedProvider([]) }),
    );
    expect(() =>
      createJudgePanel({ name: 'panel', members } as unknown as Parameters<
        typeof createJudgePanel
      >[0]),
    ).toThrow(
      "a panel needs a rule ({ rule: 'majority' | 'unanimous' | 'mean_score', minVotes, threshold }), got undefined",
    );
  });

  it('hands back a complete subject, checked once', () => {
    const checked = checkJudgeSubject(minimal);
    expect(checked).toEqual({ ...minimal, subjectId: 'c1', observation: {} });
    expect(checkJudgeSubject(checked)).toBe(checked);
  });
});

describe('a judge result is stored as a person reads it', () => {
  it('keeps its duration in whole milliseconds, whatever fractions the monotonic clock has', async () => {
    const clock = fixedClock(new Date('2026-01-01T00:00:00Z'));
    const provider = scriptedProvider([{ content: PASSED }]);
    const slowed = {
      ...provider,
      invoke: async (request: Parameters<typeof provider.invoke>[0]) => {
        clock.advance(66.94137799999999);
        return provider.invoke(request);
      },
    };
    const result = await createModelJudge({ ...baseSettings, clock, provider: slowed }).evaluate(
      fromJavaScript(minimal),
    );
    expect(result.durationMs).toBe(67);
  });
});
