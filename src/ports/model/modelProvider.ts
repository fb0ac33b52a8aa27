import type { ChatMessage } from '../../domain/judge/prompt.js';
import type { ReportedUsage } from '../../domain/judge/usage.js';
import { ArenaError } from '../../domain/shared/errors.js';

/** The strict structured-output format a judge asks for. */
export interface ResponseSchema {
  readonly name: string;
  readonly strict: true;
  readonly schema: Readonly<Record<string, unknown>>;
}

/** One call to a model. Judges always send `temperature: 0`. */
export interface ModelRequest {
  readonly messages: readonly ChatMessage[];
  readonly responseSchema: ResponseSchema;
  readonly temperature: 0;
  readonly timeoutMs: number;
  /** Evaluation metadata (judge, versions, case id): never secrets. */
  readonly metadata: Readonly<Record<string, string | boolean>>;
  /** Aborted on timeout or cancel: a provider must stop the call. */
  readonly signal: AbortSignal;
}

/** What a model answered. `costUsd` is checked by the judge (finite, ≥ 0). */
export interface ModelResponse {
  readonly content: string;
  readonly usage?: ReportedUsage | null;
  readonly costUsd?: number | null;
}

/**
 * A model a judge can call. `name` is the provider's identity (e.g. `openai`,
 * `ollama`, `replay`) and `model` the model's; both feed self-evaluation checks.
 *
 * @example
 * ```ts
 * const provider: ModelProvider = {
 *   name: 'static', model: 'echo',
 *   invoke: async () => ({ content: '{"status":"skipped"}' }),
 * };
 * ```
 */
export interface ModelProvider {
  readonly name: string;
  readonly model: string;
  invoke(request: ModelRequest): Promise<ModelResponse>;
  /**
   * Resolves once the model may be called (a fleet's pause of it waited
   * out), before an attempt's timeout starts; absent: at once.
   */
  ready?(signal: AbortSignal): Promise<void>;
}

/**
 * A provider call failed. Subclasses tell the kinds apart by `name`, which
 * becomes a result's `errorType`; `retryAfterMs` is the provider's hint.
 *
 * @example
 * ```ts
 * error instanceof ModelProviderError; // true for each kind: ProviderHttpError, ProviderRateLimitError...
 * error instanceof ModelProviderError && error.name; // the kind, e.g. 'ProviderHttpError'
 * ```
 */
export class ModelProviderError extends ArenaError {
  readonly status: number | null;
  readonly retryAfterMs: number | null;
  constructor(
    code: string,
    message: string,
    options: { status?: number | null; retryAfterMs?: number | null; cause?: unknown } = {},
  ) {
    super(code, message, { cause: options.cause });
    this.status = options.status ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

/**
 * HTTP 429: too many requests; honour `retryAfterMs` when the backoff is on.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'PROVIDER_RATE_LIMIT'); // true when `error` is a ProviderRateLimitError
 * error instanceof ProviderRateLimitError && error.name; // 'ProviderRateLimitError'
 * ```
 */
export class ProviderRateLimitError extends ModelProviderError {
  constructor(message: string, options: { retryAfterMs?: number | null; cause?: unknown } = {}) {
    super('PROVIDER_RATE_LIMIT', message, { ...options, status: 429 });
  }
}

/**
 * Any other HTTP error status (4xx or 5xx).
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'PROVIDER_HTTP'); // true when `error` is a ProviderHttpError
 * error instanceof ProviderHttpError && error.name; // 'ProviderHttpError'
 * ```
 */
export class ProviderHttpError extends ModelProviderError {
  constructor(
    message: string,
    options: { status: number; retryAfterMs?: number | null; cause?: unknown },
  ) {
    super('PROVIDER_HTTP', message, options);
  }
}

/**
 * The server could not be reached, or the connection broke.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'PROVIDER_CONNECTION'); // true when `error` is a ProviderConnectionError
 * error instanceof ProviderConnectionError && error.name; // 'ProviderConnectionError'
 * ```
 */
export class ProviderConnectionError extends ModelProviderError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('PROVIDER_CONNECTION', message, options);
  }
}

/**
 * The server answered with something that is not a chat completion.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'PROVIDER_PROTOCOL'); // true when `error` is a ProviderProtocolError
 * error instanceof ProviderProtocolError && error.name; // 'ProviderProtocolError'
 * ```
 */
export class ProviderProtocolError extends ModelProviderError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('PROVIDER_PROTOCOL', message, options);
  }
}

/**
 * The server's response body is larger than the adapter's cap
 * (`max_response_bytes`): reading stopped at the cap, and the attempt failed.
 *
 * @example
 * ```ts
 * new ProviderResponseTooLargeError(4_194_304).message;
 * // 'model server response is larger than 4194304 bytes (max_response_bytes); reading stopped there'
 * ```
 */
export class ProviderResponseTooLargeError extends ModelProviderError {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(
      'PROVIDER_RESPONSE_TOO_LARGE',
      `model server response is larger than ${maxBytes} bytes (max_response_bytes); reading stopped there`,
    );
    this.maxBytes = maxBytes;
  }
}

/**
 * The call was aborted by its signal (timeout or cancel).
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'PROVIDER_ABORTED'); // true when `error` is a ProviderAbortedError
 * error instanceof ProviderAbortedError && error.name; // 'ProviderAbortedError'
 * ```
 */
export class ProviderAbortedError extends ModelProviderError {
  constructor(message = 'model call aborted') {
    super('PROVIDER_ABORTED', message);
  }
}
