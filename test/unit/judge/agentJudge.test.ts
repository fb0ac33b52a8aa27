import { describe, expect, it } from 'vitest';
import { createAgentJudge } from '../../../src/actors/judging/judges.js';
import { JudgeConfigurationError } from '../../../src/domain/judge/errors.js';
import type { AgentGenerateOptions, JudgeAgent } from '../../../src/ports/judgeAgent.js';
import type { ModelResponse } from '../../../src/ports/model/modelProvider.js';
import { baseSettings, PASSED, subject } from './fixtures.js';

function agent(
  overrides: Partial<JudgeAgent> = {},
  generate?: JudgeAgent['generate'],
): JudgeAgent & {
  calls: AgentGenerateOptions[];
} {
  const calls: AgentGenerateOptions[] = [];
  const self: JudgeAgent & { calls: AgentGenerateOptions[] } = {
    name: 'reviewer',
    model: 'review-model',
    tools: {
      search: { metadata: { read_only: true } },
      lookup: { metadata: { readOnlyHint: true } },
      fetch: { metadata: { read_only_hint: true } },
      score: { metadata: { evaluation_safe: true } },
      delete_file: { metadata: {} },
      bare: {},
    },
    persistState: false,
    conversationHistory: ['earlier turn'],
    calls,
    generate:
      generate ??
      (async (message, options) => {
        calls.push(options);
        self.conversationHistory.push(message, 'reply');
        return { content: PASSED };
      }),
    ...overrides,
  };
  return self;
}

describe('agent judge', () => {
  it('judges with the rubric as an extra system message and only the allowed tools', async () => {
    const reviewer = agent();
    const judge = createAgentJudge({
      ...baseSettings,
      agent: reviewer,
      allowedTools: ['search'],
      maxToolRounds: 3,
    });
    const result = await judge.evaluate(subject());
    expect(result).toMatchObject({ status: 'passed', model: 'review-model' });
    expect(reviewer.calls[0]).toMatchObject({ allowedToolNames: ['search'], maxToolRounds: 3 });
    expect(reviewer.calls[0]?.additionalSystemMessage).toContain('<trusted_rubric>');
  });

  it('accepts read-only tools under every spelling, and evaluation-safe ones only under that policy', () => {
    const reviewer = agent();
    expect(() =>
      createAgentJudge({
        ...baseSettings,
        agent: reviewer,
        allowedTools: ['search', 'lookup', 'fetch'],
        toolPolicy: 'read_only',
      }),
    ).not.toThrow();
    expect(() =>
      createAgentJudge({ ...baseSettings, agent: reviewer, allowedTools: ['score'] }),
    ).not.toThrow();
    expect(() =>
      createAgentJudge({
        ...baseSettings,
        agent: reviewer,
        allowedTools: ['score'],
        toolPolicy: 'read_only',
      }),
    ).toThrow('tools are not evaluation-safe under read_only: score');
  });

  it('rejects unsafe and unknown tools', () => {
    const reviewer = agent();
    expect(() =>
      createAgentJudge({ ...baseSettings, agent: reviewer, allowedTools: ['delete_file', 'bare'] }),
    ).toThrow('tools are not evaluation-safe under evaluation_safe: bare, delete_file');
    expect(() =>
      createAgentJudge({ ...baseSettings, agent: reviewer, allowedTools: ['nope', 'search'] }),
    ).toThrow('unknown tools: nope');
    expect(() =>
      createAgentJudge({ ...baseSettings, agent: reviewer, toolPolicy: 'anything' as 'read_only' }),
    ).toThrow(JudgeConfigurationError);
  });

  it('rejects agents that persist state, and tool rounds outside 1..1000', () => {
    expect(() =>
      createAgentJudge({ ...baseSettings, agent: agent({ persistState: true }) }),
    ).toThrow('evaluator agents must not persist');
    for (const maxToolRounds of [0, 1001]) {
      expect(() => createAgentJudge({ ...baseSettings, agent: agent(), maxToolRounds })).toThrow(
        'maxToolRounds must be between 1 and 1000',
      );
    }
  });

  it('restores the conversation history after each evaluation, even on error', async () => {
    const reviewer = agent();
    const judge = createAgentJudge({ ...baseSettings, agent: reviewer });
    await judge.evaluate(subject());
    expect(reviewer.conversationHistory).toEqual(['earlier turn']);
    const failing = agent({}, async () => {
      failing.conversationHistory.push('half a turn');
      throw new TypeError('agent broke');
    });
    const result = await createAgentJudge({ ...baseSettings, agent: failing }).evaluate(subject());
    expect(result).toMatchObject({ status: 'error', errorType: 'TypeError' });
    expect(failing.conversationHistory).toEqual(['earlier turn']);
  });

  it('rejects an evaluation of the same agent as self-evaluation', async () => {
    const reviewer = agent();
    const result = await createAgentJudge({ ...baseSettings, agent: reviewer }).evaluate(
      subject({ observation: { agentName: 'reviewer' } }),
    );
    expect(result).toMatchObject({ status: 'error', errorType: 'SelfEvaluationRejected' });
    expect(reviewer.calls).toHaveLength(0);
  });

  it('runs one evaluation at a time per agent', async () => {
    let running = 0;
    let most = 0;
    const reviewer = agent({}, async (): Promise<ModelResponse> => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return { content: PASSED };
    });
    const first = createAgentJudge({ ...baseSettings, agent: reviewer });
    const second = createAgentJudge({ ...baseSettings, name: 'other', agent: reviewer });
    const results = await Promise.all([
      first.evaluate(subject({ caseId: 'a' })),
      second.evaluate(subject({ caseId: 'b' })),
      first.evaluate(subject({ caseId: 'c' })),
    ]);
    expect(results.map((result) => result.status)).toEqual(['passed', 'passed', 'passed']);
    expect(most).toBe(1);
  });

  it('treats a response that is not a model response as invalid', async () => {
    const reviewer = agent({}, async () => ({ content: 42 }) as unknown as ModelResponse);
    const result = await createAgentJudge({
      ...baseSettings,
      agent: reviewer,
      maxAttempts: 1,
    }).evaluate(subject());
    expect(result).toMatchObject({ status: 'error', errorType: 'JudgeResponseError' });
  });
});
