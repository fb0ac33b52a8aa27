import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createModelJudge } from '../../../src/actors/judging/judges.js';
import {
  JudgeCancelledError,
  JudgeConfigurationError,
  JudgeResponseError,
} from '../../../src/domain/judge/errors.js';
import {
  ProviderHttpError,
  ProviderRateLimitError,
} from '../../../src/ports/model/modelProvider.js';
import { baseSettings, PASSED, scriptedProvider, subject } from './fixtures.js';

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

describe('model judge', () => {
  it('returns the strict envelope of a valid verdict', async () => {
    const provider = scriptedProvider([{ content: PASSED, usage, costUsd: 0.01 }]);
    const result = await createModelJudge({ ...baseSettings, provider }).evaluate(subject());
    expect(result).toMatchObject({
      evaluationRunId: 'run-1',
      caseId: 'case-1',
      subjectId: 'subject-1',
      judge: 'accuracy',
      judgeVersion: '1',
      rubricVersion: '2026-01',
      status: 'passed',
      score: 1,
      label: 'correct',
      model: 'judge-model',
      costUsd: 0.01,
      attemptCount: 1,
      errorType: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(result.evidence).toEqual([
      expect.objectContaining({ sizeBytes: 5, mediaType: 'text/plain' }),
    ]);
    expect(result.promptSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(result)).not.toContain('explanation');
  });

  it('sends deterministic, strict requests: temperature 0, json_schema, evaluation metadata', async () => {
    const provider = scriptedProvider([{ content: PASSED }]);
    await createModelJudge({ ...baseSettings, provider }).evaluate(subject());
    const request = provider.requests[0]!;
    expect(request.temperature).toBe(0);
    expect(request.responseSchema.strict).toBe(true);
    expect(request.metadata).toMatchObject({
      'arena.evaluation': true,
      'arena.evaluation.judge': 'accuracy',
    });
    expect(request.messages.map((message) => message.role)).toEqual(['system', 'user']);
  });

  it('retries after an invalid payload and sums usage over both attempts', async () => {
    const provider = scriptedProvider([
      { content: '{"status":"passed"}', usage, costUsd: 0.01 },
      { content: PASSED, usage, costUsd: 0.02 },
    ]);
    const result = await createModelJudge({ ...baseSettings, provider }).evaluate(subject());
    expect(result.status).toBe('passed');
    expect(result.attemptCount).toBe(2);
    expect(result.usage).toMatchObject({ inputTokens: 20, outputTokens: 10, totalTokens: 30 });
    expect(result.costUsd).toBeCloseTo(0.03);
  });

  it('aborts a timed-out attempt and succeeds on the next', async () => {
    const provider = scriptedProvider(['hang', { content: PASSED }]);
    const result = await createModelJudge({ ...baseSettings, provider, timeoutMs: 20 }).evaluate(
      subject(),
    );
    expect(result).toMatchObject({ status: 'passed', attemptCount: 2 });
    expect(provider.requests[0]!.signal.aborted).toBe(true);
  });

  it('reports the last error after the last attempt', async () => {
    const provider = scriptedProvider([
      'hang',
      { content: 'nope' },
      new ProviderHttpError('boom', { status: 500 }),
    ]);
    const result = await createModelJudge({
      ...baseSettings,
      provider,
      timeoutMs: 20,
      maxAttempts: 3,
    }).evaluate(subject());
    expect(result).toMatchObject({
      status: 'error',
      errorType: 'ProviderHttpError',
      attemptCount: 3,
      score: null,
    });
  });

  it("uses a provider error's class name, truncated to 256 characters, as the error type", async () => {
    class VeryLongProviderFailure extends Error {
      override name = 'X'.repeat(300);
    }
    const provider = scriptedProvider([new VeryLongProviderFailure('x')]);
    const result = await createModelJudge({ ...baseSettings, provider, maxAttempts: 1 }).evaluate(
      subject(),
    );
    expect(result.errorType).toBe('X'.repeat(256));
  });

  it('rejects self-evaluation after one attempt without calling the provider', async () => {
    const provider = scriptedProvider([{ content: PASSED }], 'target-model');
    const result = await createModelJudge({ ...baseSettings, provider }).evaluate(subject());
    expect(result).toMatchObject({
      status: 'error',
      errorType: 'SelfEvaluationRejected',
      attemptCount: 1,
    });
    expect(provider.requests).toHaveLength(0);
  });

  it('allows self-evaluation when configured, and ignores the same model on another provider', async () => {
    const allowed = scriptedProvider([{ content: PASSED }], 'target-model');
    const judge = createModelJudge({
      ...baseSettings,
      provider: allowed,
      allowSelfEvaluation: true,
    });
    expect((await judge.evaluate(subject())).status).toBe('passed');
    const other = scriptedProvider([{ content: PASSED }], 'target-model');
    const context = subject({ observation: { model: 'target-model', provider: 'ollama' } });
    expect(
      (await createModelJudge({ ...baseSettings, provider: other }).evaluate(context)).status,
    ).toBe('passed');
  });

  it('cancels: the call in flight is aborted and the promise rejects with no result', async () => {
    const provider = scriptedProvider(['hang']);
    const controller = new AbortController();
    const pending = createModelJudge({ ...baseSettings, provider }).evaluate(subject(), {
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(JudgeCancelledError);
    expect(provider.requests[0]!.signal.aborted).toBe(true);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const provider = scriptedProvider([{ content: PASSED }]);
    const judge = createModelJudge({ ...baseSettings, provider });
    await expect(judge.evaluate(subject(), { signal: AbortSignal.abort() })).rejects.toThrow(
      JudgeCancelledError,
    );
    expect(provider.requests).toHaveLength(0);
  });

  it('ends at once when input tokens exceed the budget', async () => {
    const provider = scriptedProvider([
      { content: 'bad', usage },
      { content: PASSED, usage },
    ]);
    const result = await createModelJudge({
      ...baseSettings,
      provider,
      maxInputTokens: 15,
      maxAttempts: 5,
    }).evaluate(subject());
    expect(result).toMatchObject({
      status: 'error',
      errorType: 'JudgeInputTokenLimitExceeded',
      attemptCount: 2,
    });
    expect(result.usage?.inputTokens).toBe(20);
    expect(provider.requests).toHaveLength(2);
  });

  it('ends at once when cost exceeds the budget, even with a valid payload', async () => {
    const provider = scriptedProvider([{ content: PASSED, usage, costUsd: 0.5 }]);
    const result = await createModelJudge({ ...baseSettings, provider, maxCostUsd: 0.1 }).evaluate(
      subject(),
    );
    expect(result).toMatchObject({
      status: 'error',
      errorType: 'JudgeCostLimitExceeded',
      costUsd: 0.5,
      score: null,
    });
  });

  it('treats invalid cost metadata as an invalid response', async () => {
    const provider = scriptedProvider([
      { content: PASSED, costUsd: true as unknown as number },
      { content: PASSED, costUsd: Number.NaN },
    ]);
    const result = await createModelJudge({ ...baseSettings, provider }).evaluate(subject());
    expect(result).toMatchObject({
      status: 'error',
      errorType: 'JudgeResponseError',
      costUsd: null,
    });
  });

  it('rejects NaN and incomplete payloads', async () => {
    const provider = scriptedProvider([
      { content: '{"status":"passed","score":NaN,"label":"x"}' },
      { content: '{"status":"failed","label":"x"}' },
    ]);
    const result = await createModelJudge({ ...baseSettings, provider }).evaluate(subject());
    expect(result).toMatchObject({
      status: 'error',
      errorType: 'JudgeResponseError',
      attemptCount: 2,
    });
  });

  it('accepts usage that reports only some counts, counting the others as 0', async () => {
    const provider = scriptedProvider([{ content: PASSED, usage: { outputTokens: 1 } }]);
    const result = await createModelJudge({ ...baseSettings, provider }).evaluate(subject());
    expect(result).toMatchObject({ status: 'passed', attemptCount: 1 });
    expect(result.usage).toMatchObject({ inputTokens: 0, outputTokens: 1, totalTokens: 1 });
  });

  it('retries a verdict whose evidence is null, as the seed does', async () => {
    const nullEvidence = JSON.stringify({ ...JSON.parse(PASSED), evidence: null });
    const provider = scriptedProvider([{ content: nullEvidence }, { content: PASSED }]);
    const result = await createModelJudge({ ...baseSettings, provider }).evaluate(subject());
    expect(result).toMatchObject({ status: 'passed', attemptCount: 2 });
    const alwaysNull = scriptedProvider([{ content: nullEvidence }, { content: nullEvidence }]);
    const exhausted = await createModelJudge({ ...baseSettings, provider: alwaysNull }).evaluate(
      subject(),
    );
    expect(exhausted).toMatchObject({
      status: 'error',
      errorType: 'JudgeResponseError',
      attemptCount: 2,
    });
  });

  it('never lets raw invalid output reach the result', async () => {
    const secret = 'IGNORE-PREVIOUS-INSTRUCTIONS-TOKEN';
    const provider = scriptedProvider([
      { content: `{"status":"passed","score":1,"label":"ok","${secret}":1}` },
      { content: secret },
    ]);
    const result = await createModelJudge({ ...baseSettings, provider }).evaluate(subject());
    expect(JSON.stringify(result)).not.toContain(secret);
  });

  it('logs each verdict by its facts, never the raw output', async () => {
    const secret = 'RAW-MODEL-TEXT-SHOULD-NOT-BE-LOGGED';
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ level: 'debug' }, destination);
    const failing = scriptedProvider([{ content: secret }, { content: `{"status":"${secret}"}` }]);
    await createModelJudge({ ...baseSettings, provider: failing, logger }).evaluate(subject());
    const passing = scriptedProvider([{ content: PASSED }]);
    await createModelJudge({ ...baseSettings, provider: passing, logger }).evaluate(subject());
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      errorType: 'JudgeResponseError',
      msg: 'judgement ended in error',
    });
    expect(JSON.parse(lines[1]!)).toMatchObject({
      level: 20,
      status: 'passed',
      msg: 'judgement done',
    });
    expect(lines.join('')).not.toContain(secret);
  });

  it('logs the cause of the last attempt only: an answered attempt clears an earlier provider error', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino({ level: 'warn' }, destination);
    const provider = scriptedProvider([
      new ProviderHttpError('model server answered HTTP 500', { status: 500 }),
      { content: 'not json' },
    ]);
    await createModelJudge({ ...baseSettings, provider, logger }).evaluate(subject());
    const lastHttp = scriptedProvider([
      { content: 'not json' },
      new ProviderHttpError('model server answered HTTP 503', { status: 503 }),
    ]);
    await createModelJudge({ ...baseSettings, provider: lastHttp, logger }).evaluate(subject());
    const [invalidLast, httpLast] = lines.map((line) => JSON.parse(line));
    expect(invalidLast).toMatchObject({
      errorType: 'JudgeResponseError',
      errorDetail: 'not valid JSON (8 characters)',
    });
    expect(httpLast).toMatchObject({
      errorType: 'ProviderHttpError',
      errorDetail: 'model server answered HTTP 503',
    });
  });

  it('rejects a clock without a zone with JudgeConfigurationError', async () => {
    const provider = scriptedProvider([{ content: PASSED }]);
    const clock = { now: () => '2026-01-01T00:00:00', monotonicMs: () => 0 };
    await expect(
      createModelJudge({ ...baseSettings, provider, clock }).evaluate(subject()),
    ).rejects.toThrow(JudgeConfigurationError);
  });

  it('rejects non-finite judge input with JudgeResponseError', async () => {
    const provider = scriptedProvider([{ content: PASSED }]);
    const judge = createModelJudge({ ...baseSettings, provider });
    await expect(
      judge.evaluate(subject({ input: { x: Number.POSITIVE_INFINITY } })),
    ).rejects.toThrow(JudgeResponseError);
    expect(provider.requests).toHaveLength(0);
  });

  it('measures duration on the monotonic clock', async () => {
    let now = 1000;
    const clock = { now: () => new Date('2026-01-01T00:00:00Z'), monotonicMs: () => (now += 7) };
    const provider = scriptedProvider([{ content: PASSED }]);
    const result = await createModelJudge({ ...baseSettings, provider, clock }).evaluate(subject());
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it('retries at once by default, and waits for retry-after when the backoff is on', async () => {
    const clock = { now: () => new Date(), monotonicMs: () => performance.now() };
    const times: number[] = [];
    const rateLimited = () => {
      const provider = scriptedProvider([
        new ProviderRateLimitError('slow down', { retryAfterMs: 60 }),
        { content: PASSED },
      ]);
      const invoke = provider.invoke.bind(provider);
      provider.invoke = (request) => {
        times.push(performance.now());
        return invoke(request);
      };
      return provider;
    };
    await createModelJudge({ ...baseSettings, clock, provider: rateLimited() }).evaluate(subject());
    const immediate = times[1]! - times[0]!;
    times.length = 0;
    const backoff = { initialMs: 1, maxMs: 100, multiplier: 2, jitter: 0.5 };
    const result = await createModelJudge({
      ...baseSettings,
      clock,
      backoff,
      provider: rateLimited(),
    }).evaluate(subject());
    expect(result).toMatchObject({ status: 'passed', attemptCount: 2 });
    expect(immediate).toBeLessThan(50);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(55);
  });

  it('checks its configuration when it is created', () => {
    const provider = scriptedProvider([]);
    expect(() => createModelJudge({ ...baseSettings, provider, maxAttempts: 0 })).toThrow(
      JudgeConfigurationError,
    );
    expect(() => createModelJudge({ ...baseSettings, provider, timeoutMs: -1 })).toThrow(
      JudgeConfigurationError,
    );
  });
});
