import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  agentJudgeFromConfig,
  modelJudgeFromConfig,
  providerFromConfig,
} from '../../../src/actors/judging/judges.js';
import { loadJudgeConfig, parseJudgeConfig } from '../../../src/config/judgeConfig.js';
import { JudgeConfigurationError } from '../../../src/domain/judge/errors.js';
import type { JudgeAgent } from '../../../src/ports/judgeAgent.js';
import { type ChatServer, startChatServer } from '../../support/chatServer.js';
import { scratchFolder } from '../../support/scratch.js';
import { PASSED, subject } from './fixtures.js';

const minimal = {
  rubric: { version: '2026-01', text: 'Be strict.' },
  models: {
    local: { provider: 'openai', model: 'llama3.1:8b', base_url: 'http://127.0.0.1:9/v1' },
  },
  judges: { strict: { model: 'local' } },
};

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('judge config', () => {
  it('fills the seed defaults', () => {
    const config = parseJudgeConfig(minimal);
    expect(config.judges.strict).toMatchObject({
      judge_version: '1',
      timeout_seconds: 60,
      max_attempts: 2,
      allow_self_evaluation: false,
      tool_policy: 'evaluation_safe',
    });
  });

  it.each([
    [
      { judges: { strict: { model: 'local', timeout_seconds: 0 } } },
      'judges.strict.timeout_seconds',
    ],
    [{ judges: { strict: { model: 'local', max_attempts: 101 } } }, 'judges.strict.max_attempts'],
    [
      { judges: { strict: { model: 'local', timeout_seconds: 3_000_000 } } },
      'judges.strict.timeout_seconds: expected at most 2147483.647 seconds (the longest a timer can wait, about 24.8 days), got number 3000000',
    ],
    [
      { judges: { strict: { model: 'local', backoff: { initial_ms: 1, max_ms: 2 ** 31 } } } },
      'judges.strict.backoff.max_ms: expected at most 2147483647 ms',
    ],
    [
      { judges: { strict: { model: 'local', backoff: { initial_ms: 50, max_ms: 10 } } } },
      'judges.strict.backoff.max_ms: expected at least initial_ms',
    ],
    [
      { judges: { strict: { model: 'local', max_input_tokens: 0 } } },
      'judges.strict.max_input_tokens',
    ],
    [{ judges: { strict: { model: 'local', max_cost_usd: -1 } } }, 'judges.strict.max_cost_usd'],
    [
      { judges: { strict: { model: 'nope' } } },
      "judges.strict.model: unknown model profile 'nope'",
    ],
    [{ judges: { strict: {} } }, 'exactly one of model or agent'],
    [
      { judges: { strict: { model: 'local', tool_policy: 'anything' } } },
      'judges.strict.tool_policy',
    ],
    [{ rubric: { version: '', text: 'x' } }, 'rubric.version'],
    [{ gates: { min_pass_rate: 2 } }, 'gates.min_pass_rate'],
    [{ surprise: true }, 'surprise'],
  ])('names the path of a bad value: %o', (override, message) => {
    expect(() => parseJudgeConfig({ ...minimal, ...override })).toThrow(JudgeConfigurationError);
    expect(() => parseJudgeConfig({ ...minimal, ...override })).toThrow(message);
  });

  it('loads the shipped examples', () => {
    for (const file of ['local.yaml', 'replay.yaml']) {
      const { config } = loadJudgeConfig(path.resolve('examples/judge', file));
      expect(config.judge).toBe('strict');
    }
  });

  it('requires the API key env var when the config names one, and reports it by name', () => {
    const config = parseJudgeConfig({
      ...minimal,
      models: { local: { ...minimal.models.local, api_key_env: 'ARENA_TEST_MISSING_KEY' } },
    });
    expect(() => providerFromConfig('local', config, { env: {} })).toThrow(
      'models.local.api_key_env names ARENA_TEST_MISSING_KEY, which is not set',
    );
    expect(
      providerFromConfig('local', config, { env: { ARENA_TEST_MISSING_KEY: 'k' } }).model,
    ).toBe('llama3.1:8b');
    expect(providerFromConfig('local', parseJudgeConfig(minimal), { env: {} }).name).toBe('openai');
  });

  it('builds a model judge that uses the configured server, key and price table', async () => {
    server = await startChatServer(() => ({
      content: PASSED,
      usage: { prompt_tokens: 1_000_000, completion_tokens: 0, total_tokens: 1_000_000 },
    }));
    const config = parseJudgeConfig({
      ...minimal,
      models: {
        local: { provider: 'openai', model: 'm', base_url: server.baseURL, api_key_env: 'KEY' },
      },
      prices: { m: { input_per_million: 0.15, output_per_million: 0.6 } },
      judges: { strict: { model: 'local', max_attempts: 3, timeout_seconds: 5 } },
    });
    const judge = modelJudgeFromConfig(config, { env: { KEY: 'secret-key' } });
    expect(judge.settings).toMatchObject({
      name: 'strict',
      maxAttempts: 3,
      timeoutMs: 5000,
      rubricVersion: '2026-01',
    });
    const result = await judge.evaluate(subject());
    expect(result.costUsd).toBeCloseTo(0.15);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer secret-key');
  });

  it('caps output at max_output_tokens, and at 1000 (the seed default) without it', async () => {
    server = await startChatServer(() => ({ content: PASSED }));
    const configWith = (extra: Record<string, unknown>) =>
      parseJudgeConfig({
        ...minimal,
        models: { local: { provider: 'openai', model: 'm', base_url: server!.baseURL, ...extra } },
      });
    await modelJudgeFromConfig(configWith({})).evaluate(subject());
    await modelJudgeFromConfig(configWith({ max_output_tokens: 400 })).evaluate(subject());
    expect(server.requests.map((request) => request.body.max_completion_tokens)).toEqual([
      1000, 400,
    ]);
  });

  it('caps the response body at the profile max_response_bytes', async () => {
    server = await startChatServer(() => ({ content: PASSED }));
    const config = parseJudgeConfig({
      ...minimal,
      models: {
        local: { provider: 'openai', model: 'm', base_url: server.baseURL, max_response_bytes: 64 },
      },
      judges: { strict: { model: 'local', max_attempts: 1 } },
    });
    expect(await modelJudgeFromConfig(config).evaluate(subject())).toMatchObject({
      status: 'error',
      errorType: 'ProviderResponseTooLargeError',
    });
    expect(() =>
      parseJudgeConfig({
        ...minimal,
        models: { local: { ...minimal.models.local, max_response_bytes: 0 } },
      }),
    ).toThrow('models.local.max_response_bytes');
  });

  it('plays a replay file named relative to the config', async () => {
    const dir = scratchFolder('arena-replay-');
    writeFileSync(
      path.join(dir, 'replay.jsonl'),
      `${JSON.stringify({ case_id: 'case-1', content: PASSED, cost_usd: 0.5 })}\n`,
    );
    writeFileSync(
      path.join(dir, 'judge.yaml'),
      'rubric: { version: "1", text: "r" }\nmodels: { rec: { provider: replay, model: m, replay_file: replay.jsonl } }\njudges: { j: { model: rec } }\n',
    );
    const { config, baseDir } = loadJudgeConfig(path.join(dir, 'judge.yaml'));
    const judge = modelJudgeFromConfig(config, { baseDir });
    expect(await judge.evaluate(subject())).toMatchObject({ status: 'passed', costUsd: 0.5 });
    const missing = await judge.evaluate(subject({ caseId: 'other' }));
    expect(missing).toMatchObject({ status: 'error', errorType: 'ReplayMissError' });
  });

  it('builds an agent judge from a registry, with tools and tool rounds from the config', async () => {
    const agent: JudgeAgent = {
      name: 'reviewer',
      tools: { search: { metadata: { read_only: true } } },
      persistState: false,
      conversationHistory: [],
      generate: async (_, options) => {
        expect(options.maxToolRounds).toBe(4);
        return { content: PASSED };
      },
    };
    const config = parseJudgeConfig({
      ...minimal,
      judges: { review: { agent: 'reviewer', allowed_tools: ['search'] } },
      agents: { reviewer: { max_tool_rounds: 4 } },
    });
    const judge = agentJudgeFromConfig(config, {
      registry: (name) => (name === 'reviewer' ? agent : undefined),
    });
    expect((await judge.evaluate(subject())).status).toBe('passed');
    expect(() => agentJudgeFromConfig(config, { registry: () => undefined })).toThrow(
      'evaluator agent is not registered: reviewer',
    );
    expect(() => modelJudgeFromConfig(config)).toThrow(
      'judge profile review does not reference a model',
    );
  });
});
