import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelJudge, type JudgeOptions } from '../../../src/actors/judging/judges.js';
import type { ModelRequest } from '../../../src/ports/model/modelProvider.js';
import { createOpenAIProvider, retryAfterFrom } from '../../../src/ports/model/openaiProvider.js';
import { type ChatServer, type ScriptedReply, startChatServer } from '../../support/chatServer.js';
import { baseSettings, PASSED, subject } from './fixtures.js';

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function judgeAgainst(
  replies: ScriptedReply[],
  options: Partial<Pick<JudgeOptions, 'timeoutMs' | 'maxAttempts' | 'backoff'>> & {
    maxResponseBytes?: number;
  } = {},
) {
  server = await startChatServer((_, index) => replies[index] ?? { status: 500 });
  const { maxResponseBytes, ...judgeOptions } = options;
  const provider = createOpenAIProvider({
    baseURL: server.baseURL,
    model: 'judge-model',
    apiKey: 'test-key',
    price: { inputPerMillion: 1, outputPerMillion: 2 },
    ...(maxResponseBytes !== undefined ? { maxResponseBytes } : {}),
  });
  const judge = createModelJudge({ ...baseSettings, provider, ...judgeOptions });
  return judge.evaluate(subject());
}

/** A bare provider request (no judge around it). */
function request(): ModelRequest {
  return {
    messages: [],
    responseSchema: { name: 'x', strict: true, schema: {} },
    temperature: 0,
    timeoutMs: 5000,
    metadata: {},
    signal: new AbortController().signal,
  };
}

describe('OpenAI-compatible provider against a real chat-completions server', () => {
  it('sends a strict json_schema request with temperature 0 and maps usage and cost', async () => {
    const result = await judgeAgainst([
      {
        content: PASSED,
        usage: {
          prompt_tokens: 1000,
          completion_tokens: 500,
          total_tokens: 1500,
          completion_tokens_details: { reasoning_tokens: 200 },
          prompt_tokens_details: { cached_tokens: 300 },
        },
      },
    ]);
    expect(result).toMatchObject({ status: 'passed', score: 1 });
    expect(result.usage).toEqual({
      inputTokens: 1000,
      outputTokens: 500,
      reasoningTokens: 200,
      cacheReadTokens: 300,
      cacheWriteTokens: 0,
      totalTokens: 1500,
    });
    expect(result.costUsd).toBeCloseTo(0.002);
    const request = server!.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer test-key');
    expect(request.body).toMatchObject({
      model: 'judge-model',
      temperature: 0,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'arena_judge_result', strict: true },
      },
    });
  });

  it('accepts a server that reports only some usage counts and prices what it reports', async () => {
    const result = await judgeAgainst([{ content: PASSED, usage: { completion_tokens: 1000 } }]);
    expect(result).toMatchObject({ status: 'passed', attemptCount: 1 });
    expect(result.usage).toEqual({
      inputTokens: 0,
      outputTokens: 1000,
      reasoningTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      totalTokens: 1000,
    });
    expect(result.costUsd).toBeCloseTo(0.002);
  });

  it('aborts a slow response at the timeout and retries', async () => {
    const result = await judgeAgainst([{ content: PASSED, delayMs: 2000 }, { content: PASSED }], {
      timeoutMs: 150,
    });
    expect(result).toMatchObject({ status: 'passed', attemptCount: 2 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server!.aborted()).toBe(1);
  });

  it('reports a timeout when every attempt is slow', async () => {
    const slow = { content: PASSED, delayMs: 2000 };
    const result = await judgeAgainst([slow, slow], { timeoutMs: 100 });
    expect(result).toMatchObject({ status: 'error', errorType: 'JudgeTimeoutError' });
  });

  it('maps a 429 to ProviderRateLimitError and a 500 to ProviderHttpError', async () => {
    const result = await judgeAgainst([
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 500 },
    ]);
    expect(result).toMatchObject({
      status: 'error',
      errorType: 'ProviderHttpError',
      attemptCount: 2,
    });
    const rateLimited = await judgeAgainst([{ status: 429, headers: { 'retry-after-ms': '5' } }], {
      maxAttempts: 1,
    });
    expect(rateLimited.errorType).toBe('ProviderRateLimitError');
  });

  it('carries retry-after into the error so the backoff can honour it, and names it', async () => {
    server = await startChatServer(() => ({ status: 429, headers: { 'retry-after': '2' } }));
    const provider = createOpenAIProvider({ baseURL: server.baseURL, model: 'm' });
    const error = await provider.invoke(request()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      name: 'ProviderRateLimitError',
      // the server's own message says what it refused: its words, never the model's
      message: 'model server answered HTTP 429 (retry-after 2 s): scripted 429',
      retryAfterMs: 2000,
      status: 429,
    });
  });

  it('does not wait for a retry-after beyond the backoff cap: every attempt is made, then the judgement ends', async () => {
    const backoff = { initialMs: 1, maxMs: 20, multiplier: 2, jitter: 0 };
    const tooLong = { status: 429, headers: { 'retry-after': '999999' } };
    const result = await judgeAgainst([tooLong, tooLong, tooLong], {
      maxAttempts: 3,
      timeoutMs: 2000,
      backoff,
    });
    expect(result).toMatchObject({
      status: 'error',
      errorType: 'ProviderRateLimitError',
      attemptCount: 3,
    });
    expect(server!.requests).toHaveLength(3);
  });

  it('never sets a timer it cannot hold for a retry-after-ms above 2^31 ms', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      const backoff = { initialMs: 1, maxMs: 20, multiplier: 2, jitter: 0 };
      const huge = { status: 503, headers: { 'retry-after-ms': String(2 ** 31 + 1000) } };
      const result = await judgeAgainst([huge, { content: PASSED }], { backoff, timeoutMs: 2000 });
      expect(result).toMatchObject({ status: 'passed', attemptCount: 2 });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('stops reading a 50 MB body at the cap: an attempt error, retried, with its own type', async () => {
    const huge = { streamBytes: 50 * 1024 * 1024 };
    const result = await judgeAgainst([huge, huge]);
    expect(result).toMatchObject({
      status: 'error',
      errorType: 'ProviderResponseTooLargeError',
      attemptCount: 2,
    });
    expect(server!.requests).toHaveLength(2);
    expect(server!.streamedBytes()).toBeLessThan(2 * 20 * 1024 * 1024);
  });

  it('refuses a body whose declared length is over the cap, and recovers on the next attempt', async () => {
    const result = await judgeAgainst([
      { streamBytes: 10 * 1024 * 1024, declareLength: true },
      { content: PASSED },
    ]);
    expect(result).toMatchObject({ status: 'passed', attemptCount: 2 });
  });

  it('counts a compressed body after decompression, so a small gzip of 50 MB is over the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, ' '));
    const result = await judgeAgainst(
      [
        {
          rawBody: bomb,
          headers: { 'content-encoding': 'gzip', 'content-length': String(bomb.length) },
        },
      ],
      { maxAttempts: 1 },
    );
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(result).toMatchObject({ status: 'error', errorType: 'ProviderResponseTooLargeError' });
  });

  it('takes the cap from maxResponseBytes', async () => {
    const small = await judgeAgainst([{ content: PASSED }], { maxResponseBytes: 2000 });
    expect(small).toMatchObject({ status: 'passed', attemptCount: 1 });
    const tiny = await judgeAgainst([{ content: PASSED }], {
      maxResponseBytes: 100,
      maxAttempts: 1,
    });
    expect(tiny).toMatchObject({ status: 'error', errorType: 'ProviderResponseTooLargeError' });
  });

  it('treats malformed JSON bodies and malformed content as failed attempts', async () => {
    const result = await judgeAgainst([
      { rawBody: '{"choices": [' },
      { content: '{"status": "passed", ' },
    ]);
    expect(result).toMatchObject({
      status: 'error',
      errorType: 'JudgeResponseError',
      attemptCount: 2,
    });
    const protocol = await judgeAgainst([{ rawBody: '{"choices": [' }], { maxAttempts: 1 });
    expect(protocol.errorType).toBe('ProviderProtocolError');
  });

  it('names the base URL and ECONNREFUSED when the server is down', async () => {
    const stopped = await startChatServer(() => ({ content: PASSED }));
    const baseURL = stopped.baseURL;
    await stopped.close();
    const provider = createOpenAIProvider({ baseURL, model: 'judge-model' });
    const error = await provider.invoke(request()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderConnectionError' });
    expect((error as Error).message).toMatch(
      new RegExp(
        `^cannot reach the model server at ${baseURL}: connection refused \\(ECONNREFUSED`,
      ),
    );
    const lines: string[] = [];
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const result = await createModelJudge({ ...baseSettings, provider, logger }).evaluate(
      subject(),
    );
    expect(result).toMatchObject({
      status: 'error',
      errorType: 'ProviderConnectionError',
      attemptCount: 2,
    });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      msg: 'judgement ended in error',
      errorType: 'ProviderConnectionError',
      errorDetail: expect.stringContaining(`${baseURL}: connection refused (ECONNREFUSED`),
    });
  });

  it('names a TLS failure when https meets a plain HTTP server', async () => {
    server = await startChatServer(() => ({ content: PASSED }));
    const baseURL = server.baseURL.replace('http://', 'https://');
    const provider = createOpenAIProvider({ baseURL, model: 'judge-model' });
    const error = await provider.invoke(request()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderConnectionError' });
    expect((error as Error).message).toContain(
      `cannot reach the model server at ${baseURL}: TLS handshake failed (`,
    );
  });

  it('parses retry-after as ms, seconds or an HTTP date', () => {
    expect(retryAfterFrom(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterFrom(new Headers({ 'retry-after': '1.5' }))).toBe(1500);
    expect(
      retryAfterFrom(
        new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }),
        Date.parse('2026-01-01T00:00:00Z'),
      ),
    ).toBe(10_000);
    expect(retryAfterFrom(new Headers())).toBeNull();
  });
});
