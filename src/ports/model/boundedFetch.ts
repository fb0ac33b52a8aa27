import { ProviderResponseTooLargeError } from './modelProvider.js';

/** The `fetch` shape the openai SDK takes. */
export type FetchFunction = (
  input: string | URL | Request,
  init?: RequestInit,
) => Promise<Response>;

/** Statuses whose responses have no body (a `Response` with one cannot be built). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` whose response bodies are read through a byte counter: a body over
 * `maxBytes` (by its `content-length`, or once that many bytes arrived) fails
 * to read with `ProviderResponseTooLargeError` and its download is cancelled,
 * so memory stays bounded by the cap whatever the server sends. A body with a
 * declared length within the cap and no content encoding passes untouched;
 * a compressed one is counted after decompression.
 *
 * @example
 * ```ts
 * const client = new OpenAI({ baseURL, apiKey, fetch: boundedFetch(4 * 1024 * 1024) });
 * // a 50 MB answer: chat.completions.create rejects with ProviderResponseTooLargeError
 * ```
 */
export function boundedFetch(maxBytes: number, inner: FetchFunction = fetch): FetchFunction {
  return async (input, init) => {
    const response = await inner(input, init);
    const body = response.body;
    if (body === null || NULL_BODY_STATUSES.has(response.status)) return response;
    const declaredBytes = Number(response.headers.get('content-length') ?? Number.NaN);
    const encoding = response.headers.get('content-encoding') ?? 'identity';
    // A declared, uncompressed length is all fetch will read: within the cap, nothing to count.
    if (declaredBytes <= maxBytes && encoding === 'identity') return response;
    const capped =
      declaredBytes > maxBytes ? refusedBody(body, maxBytes) : countedBody(body, maxBytes);
    return new Response(capped, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** A declared length over the cap: fail at once and never download the body. */
function refusedBody(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.error(new ProviderResponseTooLargeError(maxBytes));
      await body.cancel().catch(() => undefined);
    },
  });
}

/** Pass chunks through until more than `maxBytes` arrived, then fail and cancel the download. */
function countedBody(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let receivedBytes = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        controller.error(error);
        return;
      }
      if (chunk.done) {
        controller.close();
        return;
      }
      receivedBytes += chunk.value.byteLength;
      if (receivedBytes > maxBytes) {
        controller.error(new ProviderResponseTooLargeError(maxBytes));
        await reader.cancel().catch(() => undefined);
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
