import type OpenAI from 'openai';
import { oneLine } from '../../domain/judge/attempt.js';
import type { TokenParameter } from '../../domain/judge/tokenParameter.js';
import type { ModelPrice } from '../../domain/judge/usage.js';
import { costFromPrice } from '../../domain/judge/usage.js';
import { describeConnectionFailure, displayBaseUrl } from '../runtime/connectionFailure.js';
import { assertPeersInstalled, optionalPeers } from '../runtime/optionalPeers.js';
import { httpFetch } from './httpFetch.js';
import {
  type ModelProvider,
  ModelProviderError,
  type ModelRequest,
  type ModelResponse,
  ProviderAbortedError,
  ProviderConnectionError,
  ProviderHttpError,
  ProviderProtocolError,
  ProviderRateLimitError,
} from './modelProvider.js';

/** The SDK's client class. */
type OpenAIClass = typeof OpenAI;

let sdk: Promise<OpenAIClass> | undefined;

/** The `openai` SDK, imported at the first request: an app that never calls a model server loads none of it. */
function openAISdk(): Promise<OpenAIClass> {
  sdk ??= import('openai').then((module) => module.default);
  return sdk;
}

/** How to reach an OpenAI-compatible chat-completions server. */
export interface OpenAIProviderOptions {
  /** e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1` (Ollama). */
  readonly baseURL: string;
  readonly model: string;
  /** The API key; local servers that need none may omit it. */
  readonly apiKey?: string | null;
  /** The provider's identity in results and self-evaluation checks; default `openai`. */
  readonly providerName?: string;
  /** USD per 1M tokens; without it, responses carry no cost. */
  readonly price?: ModelPrice | null;
  readonly maxOutputTokens?: number | null;
  /** The request field `maxOutputTokens` is sent in; default `max_completion_tokens`. */
  readonly tokenParameter?: TokenParameter;
  /** The SDK's own client timeout; each call also gets the judge's timeout. */
  readonly timeoutMs?: number;
  /** The largest response body read, per attempt; default `DEFAULT_MAX_RESPONSE_BYTES`. */
  readonly maxResponseBytes?: number;
  /**
   * The most connections kept open to the server: set it to the judgements in
   * flight (`arena judge --concurrency`) so each has one, reused. Default: one
   * per request in flight, no limit.
   */
  readonly maxConnections?: number;
}

/**
 * 4 MiB: far above any judge verdict, far below what would strain memory at high concurrency.
 *
 * @example
 * ```ts
 * DEFAULT_MAX_RESPONSE_BYTES; // 4194304
 * ```
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/**
 * A `ModelProvider` over the official `openai` SDK, for OpenAI, Ollama, vLLM,
 * LM Studio and llama.cpp's server. Deterministic and strict: temperature 0,
 * the SDK's retries off (the judge owns retries), a strict `json_schema`
 * response format, the judge's AbortSignal passed to the request, and a cap on
 * the response body (`ProviderResponseTooLargeError` over it). Requests go over
 * keep-alive connections of its own (`httpFetch`), at most `maxConnections`.
 *
 * @example
 * ```ts
 * const provider = createOpenAIProvider({ baseURL: 'http://localhost:11434/v1', model: 'llama3.1' });
 * provider.name; // 'openai'
 * ```
 */
export function createOpenAIProvider(options: OpenAIProviderOptions): ModelProvider {
  assertPeersInstalled(
    [optionalPeers.openai],
    'arena-runtime/judge (the OpenAI-compatible model provider)',
  );
  let connected: Promise<{ SDK: OpenAIClass; client: OpenAI }> | undefined;
  const connect = () => {
    connected ??= openAISdk().then((SDK) => ({
      SDK,
      client: new SDK({
        baseURL: options.baseURL,
        // The SDK refuses to start without a key; local servers ignore it.
        apiKey: options.apiKey ?? 'not-needed',
        maxRetries: 0,
        timeout: options.timeoutMs ?? 600_000,
        fetch: httpFetch({
          maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
          ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
        }),
      }),
    }));
    return connected;
  };
  const price = options.price ?? null;
  const tokenParameter = options.tokenParameter ?? 'max_completion_tokens';
  const serverName = displayBaseUrl(options.baseURL);
  return {
    name: options.providerName ?? 'openai',
    model: options.model,
    async invoke(request: ModelRequest): Promise<ModelResponse> {
      const { SDK, client } = await connect();
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await client.chat.completions.create(
          {
            model: options.model,
            messages: request.messages.map((message) => ({
              role: message.role,
              content: message.content,
            })),
            temperature: request.temperature,
            ...(options.maxOutputTokens ? { [tokenParameter]: options.maxOutputTokens } : {}),
            response_format: responseFormatOf(request.responseSchema),
          },
          { signal: request.signal, timeout: request.timeoutMs, maxRetries: 0 },
        );
      } catch (error) {
        throw providerErrorFrom(SDK, error, request.signal, serverName, options.apiKey ?? null);
      }
      return responseFrom(completion, price);
    },
  };
}

/**
 * The `response_format` a judge request sends: OpenAI's
 * `ResponseFormatJSONSchema`, written out so that arena's published
 * declarations need no `openai` (an optional peer) to type-check.
 */
export interface JsonSchemaResponseFormat {
  readonly type: 'json_schema';
  readonly json_schema: {
    readonly name: string;
    readonly strict: boolean;
    readonly schema: Record<string, unknown>;
  };
}

const responseFormats = new WeakMap<ModelRequest['responseSchema'], JsonSchemaResponseFormat>();

/**
 * The strict `json_schema` response format of a schema, as a request sends
 * it; made once per schema: every judgement of a judge sends the same one,
 * and the SDK only serialises it.
 *
 * @example
 * ```ts
 * responseFormatOf(judgeResponseSchema).json_schema.name; // 'arena_judge_result'
 * ```
 */
export function responseFormatOf(
  responseSchema: ModelRequest['responseSchema'],
): JsonSchemaResponseFormat {
  let format = responseFormats.get(responseSchema);
  if (format === undefined) {
    format = {
      type: 'json_schema',
      json_schema: {
        name: responseSchema.name,
        strict: responseSchema.strict,
        schema: { ...responseSchema.schema },
      },
    };
    responseFormats.set(responseSchema, format);
  }
  return format;
}

function responseFrom(
  completion: OpenAI.Chat.Completions.ChatCompletion,
  price: ModelPrice | null,
): ModelResponse {
  const content = (completion as Partial<typeof completion>).choices?.[0]?.message?.content;
  if (typeof content !== 'string') {
    throw new ProviderProtocolError('chat completion has no choices[0].message.content string');
  }
  const usage = completion.usage;
  if (!usage) return { content, usage: null, costUsd: null };
  // Servers that report only some counts leave the others out: the judge counts them as 0.
  const reported = {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens,
    cacheReadTokens: usage.prompt_tokens_details?.cached_tokens,
    totalTokens: usage.total_tokens,
  };
  const priced = {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
  };
  return { content, usage: reported, costUsd: price ? costFromPrice(priced, price) : null };
}

/**
 * Map an SDK error to an arena provider error whose class name is the error
 * type; a connection error names the server and the root cause (refused, DNS, TLS...).
 */
function providerErrorFrom(
  OpenAI: OpenAIClass,
  error: unknown,
  signal: AbortSignal,
  serverName: string,
  apiKey: string | null,
): ModelProviderError {
  if (error instanceof ModelProviderError) return error;
  if (signal.aborted || error instanceof OpenAI.APIUserAbortError)
    return new ProviderAbortedError();
  if (error instanceof OpenAI.APIConnectionError) {
    const cause =
      error instanceof OpenAI.APIConnectionTimeoutError
        ? 'request timed out'
        : describeConnectionFailure(error);
    return new ProviderConnectionError(`cannot reach the model server at ${serverName}: ${cause}`, {
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const retryAfterMs = retryAfterFrom(error.headers);
    // The retry-after is named: one beyond the backoff's max_ms is why no wait came before the next attempt.
    const message = `model server answered HTTP ${error.status}${retryAfterText(retryAfterMs)}${serverSaysText(error.error, apiKey)}`;
    if (error.status === 429)
      return new ProviderRateLimitError(message, { retryAfterMs, cause: error });
    return new ProviderHttpError(message, { status: error.status, retryAfterMs, cause: error });
  }
  const detail = error instanceof Error ? error.name : typeof error;
  return new ProviderProtocolError(`unexpected answer from the model server (${detail})`, {
    cause: error,
  });
}

/**
 * `: <the server's error message>`, one line, at most 200 characters, the API
 * key masked; empty when the body has none. It says what a 400 refused
 * (e.g. `max_completion_tokens`): the server's words, not the model's.
 */
function serverSaysText(body: unknown, apiKey: string | null): string {
  const said = (body as { message?: unknown } | undefined)?.message;
  if (typeof said !== 'string' || said.trim() === '') return '';
  const masked = apiKey ? said.split(apiKey).join('***') : said;
  return `: ${oneLine(masked, 200)}`;
}

/** ` (retry-after 30 s)` or ` (retry-after 1500 ms)` for an error message; empty without one. */
function retryAfterText(retryAfterMs: number | null): string {
  if (retryAfterMs === null) return '';
  return retryAfterMs % 1000 === 0
    ? ` (retry-after ${retryAfterMs / 1000} s)`
    : ` (retry-after ${retryAfterMs} ms)`;
}

/**
 * The retry-after hint of a response in ms: `retry-after-ms`, else
 * `retry-after` as seconds or an HTTP date.
 */
export function retryAfterFrom(
  headers: Headers | undefined,
  now: number = Date.now(),
): number | null {
  if (!headers) return null;
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const raw = headers.get('retry-after');
  if (raw === null) return null;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
