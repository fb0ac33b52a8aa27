import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import { inspect } from 'node:util';
import zlib from 'node:zlib';
import { boundedFetch, type FetchFunction } from './boundedFetch.js';
import { ProviderResponseTooLargeError } from './modelProvider.js';
import { responseHeaders } from './responseHeaders.js';

/** How `httpFetch` pools its connections and caps what it reads. */
export interface HttpFetchOptions {
  /** The largest response body read (after decompression); over it the body fails to read. */
  readonly maxResponseBytes: number;
  /**
   * The most connections open to one server at once; requests beyond it wait
   * for a free one. Default: no limit (keep-alive still reuses idle ones).
   */
  readonly maxConnections?: number;
}

/** Statuses whose responses have no body (a `Response` with one cannot be built). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** What `fetch` follows at most (the fetch standard's limit). */
const MAX_REDIRECTS = 20;

/**
 * A `fetch` for the openai SDK over `node:http` / `node:https` with keep-alive
 * agents of its own: one connection per request in flight (up to
 * `maxConnections`), reused, and a fraction of the CPU of Node's built-in
 * `fetch`. The body is read whole before the `Response` resolves, counted after
 * decompression (gzip, deflate, br) against `maxResponseBytes`: over the cap the
 * download stops and reading the body fails with `ProviderResponseTooLargeError`,
 * as with `boundedFetch`. Aborting `init.signal` destroys the request and
 * rejects with the signal's reason; redirects are followed as `fetch` does.
 * Requests it does not handle (a `Request` object, a streamed or form body)
 * go to `boundedFetch` over the built-in `fetch`.
 *
 * @example
 * ```ts
 * const client = new OpenAI({ baseURL, apiKey, fetch: httpFetch({ maxResponseBytes: 4 * 1024 * 1024, maxConnections: 128 }) });
 * // 128 judgements in flight open at most 128 connections, kept alive between requests
 * ```
 */
export function httpFetch(options: HttpFetchOptions): FetchFunction {
  const maxSockets = options.maxConnections ?? Number.POSITIVE_INFINITY;
  // The settings of Node's global agent (keep-alive, most recently used first), sized here.
  const agentOptions = { keepAlive: true, scheduling: 'lifo', timeout: 5000, maxSockets } as const;
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const fallback = boundedFetch(options.maxResponseBytes);
  return async (input, init = {}) => {
    const body = init.body ?? null;
    if (
      input instanceof Request ||
      (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
    ) {
      return fallback(input, init);
    }
    let url = parsedUrl(input);
    let method = (init.method ?? 'GET').toUpperCase();
    let headers = headerRecord(init.headers);
    let payload: string | Uint8Array | null = body;
    for (let redirects = 0; ; redirects++) {
      const response = await exchange(url, method, headers, payload, init.signal ?? null, {
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        maxResponseBytes: options.maxResponseBytes,
        head: method === 'HEAD',
      });
      const location = response.headers.get('location');
      if (
        !REDIRECT_STATUSES.has(response.status) ||
        location === null ||
        init.redirect === 'manual'
      ) {
        return response;
      }
      if (init.redirect === 'error' || redirects >= MAX_REDIRECTS) {
        throw new TypeError(`fetch failed: redirect (${response.status}) to ${location}`);
      }
      const next = new URL(location, url);
      // The fetch standard: 303, and 301/302 after a POST, become a GET without a body.
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        if (method !== 'HEAD') method = 'GET';
        payload = null;
        headers = withoutHeaders(headers, /^content-/);
      }
      // Credentials never follow a redirect to another origin.
      if (next.origin !== url.origin) headers = withoutHeaders(headers, /^(authorization|cookie)$/);
      url = next;
    }
  };
}

type HeaderRecord = Record<string, string>;

/** Request headers as a plain record, lower-cased names; repeated names joined as `fetch` does. */
function headerRecord(init: RequestInit['headers']): HeaderRecord {
  const record: HeaderRecord = {};
  if (init === undefined) return record;
  const add = (name: string, value: string): void => {
    const key = name.toLowerCase();
    record[key] = record[key] === undefined ? value : `${record[key]}, ${value}`;
  };
  if (init instanceof Headers) {
    // Headers already lower-cases names and joins repeated ones.
    init.forEach((value, name) => {
      record[name] = value;
    });
  } else if (Array.isArray(init)) {
    for (const [name, value] of init) add(name!, value!);
  } else {
    for (const [name, value] of Object.entries(init)) {
      add(name, typeof value === 'string' ? value : value.join(', '));
    }
  }
  return record;
}

function withoutHeaders(headers: HeaderRecord, names: RegExp): HeaderRecord {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.test(name)));
}

/** One request and its whole (bounded) response. */
function exchange(
  url: URL,
  method: string,
  headers: HeaderRecord,
  payload: string | Uint8Array | null,
  signal: AbortSignal | null,
  options: { agent: http.Agent; maxResponseBytes: number; head: boolean },
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const outgoing = headerList(headers, url, payload);
    const transport = url.protocol === 'https:' ? https : http;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      reject(new TypeError(`fetch failed: unsupported protocol ${url.protocol}`));
      return;
    }
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const request = transport.request({
      ...requestTarget(url),
      method,
      headers: outgoing,
      agent: options.agent,
    });
    const onAbort = (): void => {
      request.destroy();
      finish(() => reject(signal!.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => finish(() => reject(error)));
    request.on('response', (incoming) => {
      const status = incoming.statusCode ?? 0;
      const init = {
        status,
        statusText: incoming.statusMessage ?? '',
        headers: responseHeaders(incoming.rawHeaders),
      };
      if (options.head || NULL_BODY_STATUSES.has(status)) {
        incoming.resume();
        finish(() => resolve(new Response(null, init)));
        return;
      }
      const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
      const encoding = (incoming.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      const decoded = decodedBody(incoming, encoding);
      const tooLarge = (): void => {
        incoming.destroy();
        finish(() => resolve(new Response(failingBody(options.maxResponseBytes), init)));
      };
      // A declared, uncompressed length over the cap: never download it.
      if (encoding === 'identity' && declared > options.maxResponseBytes) {
        tooLarge();
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      decoded.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > options.maxResponseBytes) {
          decoded.destroy();
          tooLarge();
          return;
        }
        chunks.push(chunk);
      });
      decoded.on('error', (error) => finish(() => reject(error)));
      // A connection that closes mid-body: the response would never end.
      incoming.on('close', () => {
        if (!incoming.complete) finish(() => reject(connectionClosedError()));
      });
      decoded.on('end', () => {
        const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        finish(() => resolve(bufferedResponse(bytes, init)));
      });
    });
    request.end(payload ?? undefined);
  });
}

/**
 * The URL a `fetch` was called with, parsed once per distinct text: a client
 * calls the same few URLs over and over. `URL` objects are never changed here
 * (a redirect makes a new one), so one can be shared.
 */
const parsedUrls = new Map<string, URL>();
function parsedUrl(input: string | URL): URL {
  if (typeof input !== 'string') return new URL(input);
  return remembered(parsedUrls, input, () => new URL(input));
}

/** `cache`'s value for `key`, made once; a cache of a client's few URLs, emptied if it ever holds 256. */
function remembered<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= 256) cache.clear();
    value = make();
    cache.set(key, value);
  }
  return value;
}

/**
 * The request's headers as `http.request` takes them fastest: names and values
 * alternating, as `rawHeaders` are (Node still validates each one, and adds
 * `Connection`, but sets none of them one by one). Added as Node's `fetch` and
 * `http.request` would: the encodings decoded here, the body's length, and
 * `Host`.
 */
function headerList(
  headers: HeaderRecord,
  url: URL,
  payload: string | Uint8Array | null,
): string[] {
  const list: string[] = [];
  for (const name in headers) {
    if (name === 'content-length' && payload !== null) continue;
    list.push(name, headers[name]!);
  }
  if (headers['accept-encoding'] === undefined) {
    list.push('accept-encoding', url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate');
  }
  if (payload !== null) list.push('content-length', String(Buffer.byteLength(payload)));
  if (headers.host === undefined) list.push('host', url.host);
  return list;
}

/** Where a URL points, as `http.request` takes it; the few URLs a client calls are converted once. */
const requestTargets = new Map<string, ReturnType<typeof urlToHttpOptions>>();
function requestTarget(url: URL): ReturnType<typeof urlToHttpOptions> {
  return remembered(requestTargets, url.href, () => urlToHttpOptions(url));
}

/** The body as the server meant it: content codings undone, last applied first. */
function decodedBody(incoming: Readable, encoding: string): Readable {
  if (encoding === 'identity') return incoming;
  let stream = incoming;
  const codings = encoding
    .split(',')
    .map((coding) => coding.trim())
    .reverse();
  for (const coding of codings) {
    const decoder =
      coding === 'gzip' || coding === 'x-gzip'
        ? zlib.createGunzip({
            flush: zlib.constants.Z_SYNC_FLUSH,
            finishFlush: zlib.constants.Z_SYNC_FLUSH,
          })
        : coding === 'deflate'
          ? zlib.createInflate()
          : coding === 'br'
            ? zlib.createBrotliDecompress()
            : null;
    if (decoder === null) continue;
    stream.on('error', (error) => decoder.destroy(error));
    stream = stream.pipe(decoder);
  }
  return stream;
}

/**
 * A `Response` whose body is already in memory: `json()`, `text()` and
 * `arrayBuffer()` read the bytes directly, with no stream in between (a
 * stream per response is most of what a built `Response` costs); `body`
 * makes one only when asked for. A body is read once, as with `fetch`.
 * `instanceof Response` holds, but the `Response` constructor never runs
 * (its checks and its own copy of the headers cost as much again): every
 * member of `Response` is defined here, as a constructed `Response` of the
 * same status, text and headers would answer.
 */
class BufferedResponse {
  readonly #bytes: Buffer;
  readonly #status: number;
  readonly #statusText: string;
  readonly #headers: Headers;
  #used = false;
  #stream: ReadableStream<Uint8Array> | null = null;

  constructor(bytes: Buffer, init: BufferedResponseInit) {
    this.#bytes = bytes;
    this.#status = init.status;
    this.#statusText = init.statusText;
    this.#headers = init.headers;
  }

  get type(): Response['type'] {
    return 'default';
  }

  get url(): string {
    return '';
  }

  get redirected(): boolean {
    return false;
  }

  get status(): number {
    return this.#status;
  }

  get ok(): boolean {
    return this.#status >= 200 && this.#status <= 299;
  }

  get statusText(): string {
    return this.#statusText;
  }

  get headers(): Headers {
    return this.#headers;
  }

  get body(): ReadableStream<Uint8Array> {
    this.#stream ??= new ReadableStream<Uint8Array>({
      pull: (controller) => {
        if (!this.#used) controller.enqueue(new Uint8Array(this.#take()));
        controller.close();
      },
    });
    return this.#stream;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  async text(): Promise<string> {
    if (this.#stream !== null) return new Response(this.#stream).text();
    return this.#take().toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#stream !== null) return new Response(this.#stream).arrayBuffer();
    const bytes = this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }

  async blob(): Promise<Blob> {
    const type = this.#headers.get('content-type') ?? '';
    return new Blob([await this.arrayBuffer()], { type });
  }

  async formData(): Promise<FormData> {
    return new Response(await this.arrayBuffer(), { headers: this.#headers }).formData();
  }

  clone(): Response {
    if (this.#used) throw new TypeError('Response.clone: Body has already been consumed.');
    return bufferedResponse(this.#bytes, {
      status: this.#status,
      statusText: this.#statusText,
      headers: this.#headers,
    });
  }

  get [Symbol.toStringTag](): string {
    return 'Response';
  }

  [inspect.custom](): string {
    return `Response ${inspect({ status: this.#status, statusText: this.#statusText, headers: this.#headers, bodyUsed: this.#used })}`;
  }

  #take(): Buffer {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes;
  }
}
// `instanceof Response` holds; every member the prototype has is defined above.
Object.setPrototypeOf(BufferedResponse.prototype, Response.prototype);

/** What a `BufferedResponse` is made with: its headers as they will be read. */
interface BufferedResponseInit {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
}

function bufferedResponse(bytes: Buffer, init: BufferedResponseInit): Response {
  return new BufferedResponse(bytes, init) as unknown as Response;
}

function connectionClosedError(): Error {
  return Object.assign(new Error('the server closed the connection before the response ended'), {
    code: 'ECONNRESET',
  });
}

/** A body that fails to read, as a capped `boundedFetch` body does. */
function failingBody(maxBytes: number): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.error(new ProviderResponseTooLargeError(maxBytes));
    },
  });
}
