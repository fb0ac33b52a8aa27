import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server answers to one request. */
export interface ScriptedReply {
  /** HTTP status; default 200. */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** The message content of a 200 chat completion. */
  readonly content?: string;
  /** Raw body instead of a chat completion (e.g. malformed JSON), or raw bytes (e.g. gzip). */
  readonly rawBody?: string | Uint8Array;
  /** `usage` of the completion, in the wire format. */
  readonly usage?: Readonly<Record<string, unknown>>;
  /** Wait this long before answering. */
  readonly delayMs?: number;
  /**
   * Stream a 200 completion of about this many bytes (a long content string),
   * chunk by chunk, stopping when the client goes away.
   */
  readonly streamBytes?: number;
  /** With `streamBytes`: declare the size in `content-length` (default: chunked, undeclared). */
  readonly declareLength?: boolean;
}

/** A request the server received (parsed JSON body). */
export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

export interface ChatServer {
  /** e.g. `http://127.0.0.1:43123/v1` */
  readonly baseURL: string;
  readonly requests: ReceivedRequest[];
  /** Requests whose connection closed before the answer was sent. */
  readonly aborted: () => number;
  /** The most requests in flight at once since the start or the last `resetMaxInFlight()`. */
  readonly maxInFlight: () => number;
  /** Start a new `maxInFlight` window (e.g. one benchmark round). */
  readonly resetMaxInFlight: () => void;
  /** TCP connections accepted so far (keep-alive reuse keeps this near the concurrency). */
  readonly connections: () => number;
  /** Bytes written by `streamBytes` replies so far (the client stopping reading stops them). */
  readonly streamedBytes: () => number;
  /**
   * Server-side span: ms from the first request's arrival to the last answer's
   * end, since the start or the last `resetSpan()`; 0 before any answer.
   */
  readonly spanMs: () => number;
  /** Start a new span window (e.g. one benchmark run). */
  readonly resetSpan: () => void;
  close(): Promise<void>;
}

/**
 * A real chat-completions HTTP server on 127.0.0.1 (random port) that answers
 * from a script: `reply(request, index)` decides each answer.
 *
 * @example
 * ```ts
 * const server = await startChatServer(() => ({ content: '{"status":"skipped"}', delayMs: 50 }));
 * // point createOpenAIProvider({ baseURL: server.baseURL, ... }) at it
 * await server.close();
 * ```
 */
export async function startChatServer(
  reply: (request: ReceivedRequest, index: number) => ScriptedReply,
): Promise<ChatServer> {
  const requests: ReceivedRequest[] = [];
  let aborted = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let connections = 0;
  let streamedBytes = 0;
  let firstArrivalMs: number | null = null;
  let lastAnswerMs: number | null = null;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    firstArrivalMs ??= performance.now();
    response.on('finish', () => {
      lastAnswerMs = performance.now();
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = {};
      }
      const received = { path: request.url ?? '', headers: request.headers, body };
      const index = requests.push(received) - 1;
      const scripted = reply(received, index);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      let finished = false;
      const timer = setTimeout(() => {
        finished = true;
        inFlight--;
        if (scripted.streamBytes !== undefined) {
          streamCompletion(response, scripted, (bytes) => {
            streamedBytes += bytes;
          });
        } else answer(response, scripted, body);
      }, scripted.delayMs ?? 0);
      response.on('close', () => {
        if (!finished) {
          clearTimeout(timer);
          finished = true;
          inFlight--;
          aborted++;
        }
      });
    });
  });
  server.on('connection', () => {
    connections++;
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    aborted: () => aborted,
    maxInFlight: () => maxInFlight,
    resetMaxInFlight: () => {
      maxInFlight = inFlight;
    },
    connections: () => connections,
    streamedBytes: () => streamedBytes,
    spanMs: () =>
      firstArrivalMs === null || lastAnswerMs === null
        ? 0
        : Math.max(0, lastAnswerMs - firstArrivalMs),
    resetSpan: () => {
      firstArrivalMs = null;
      lastAnswerMs = null;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(
  response: ServerResponse,
  scripted: ScriptedReply,
  body: Record<string, unknown>,
): void {
  const status = scripted.status ?? 200;
  const headers = { 'content-type': 'application/json', ...scripted.headers };
  if (scripted.rawBody !== undefined) {
    response.writeHead(status, headers).end(scripted.rawBody);
    return;
  }
  if (status !== 200) {
    response
      .writeHead(status, headers)
      .end(JSON.stringify({ error: { message: `scripted ${status}`, type: 'scripted' } }));
    return;
  }
  const completion = {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_767_225_600,
    model: String(body.model ?? 'unknown'),
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: scripted.content ?? '' },
        finish_reason: 'stop',
      },
    ],
    ...(scripted.usage ? { usage: scripted.usage } : {}),
  };
  response.writeHead(status, headers).end(JSON.stringify(completion));
}

const STREAM_CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Write a huge completion with backpressure, until done or the client closes the connection. */
function streamCompletion(
  response: ServerResponse,
  scripted: ScriptedReply,
  onWritten: (bytes: number) => void,
): void {
  const head = Buffer.from(
    '{"id":"chatcmpl-big","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"',
  );
  const tail = Buffer.from('"},"finish_reason":"stop"}]}');
  const fillerChunks = Math.max(
    0,
    Math.ceil(((scripted.streamBytes ?? 0) - head.length - tail.length) / STREAM_CHUNK.length),
  );
  const total = head.length + fillerChunks * STREAM_CHUNK.length + tail.length;
  response.writeHead(200, {
    'content-type': 'application/json',
    ...(scripted.declareLength ? { 'content-length': String(total) } : {}),
  });
  let closed = false;
  response.on('close', () => {
    closed = true;
  });
  const write = (chunk: Buffer): boolean => {
    onWritten(chunk.length);
    return response.write(chunk);
  };
  write(head);
  let sent = 0;
  const pump = (): void => {
    while (!closed && sent < fillerChunks) {
      sent++;
      if (!write(STREAM_CHUNK)) {
        response.once('drain', pump);
        return;
      }
    }
    if (!closed) response.end(tail);
  };
  pump();
}
