import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { escapeXml } from '../diagram/svgText.js';
import { listenOn } from '../ports/runtime/listenOn.js';
import { messageJson } from './inspectionMessages.js';
import { type ViewerAssets, viewerAssets } from './viewerAssets.js';
import type { ViewerCharts } from './viewerCharts.js';
import { ViewerServerError } from './viewerErrors.js';
import type { FeedLine, ViewerFeed } from './viewerFeed.js';
import type { ChartMessage, HelloMessage, ViewerMessage } from './viewerMessages.js';

/**
 * The page may load only what this server serves: no CDN, no inline script
 * or style, no frame around it, no form posting anywhere.
 */
export const VIEWER_CONTENT_SECURITY_POLICY =
  "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The default bound of what one page may leave unread: 4 MiB past its first replay. */
export const DEFAULT_MAX_VIEWER_BUFFER_BYTES = 4 * 1024 * 1024;
/** Messages a page is sent per server-sent event when it connects. */
const REPLAY_CHUNK = 2000;
/** How long messages gather before they go out to the pages, in ms. */
const BATCH_MS = 16;

/** What a page is sent: messages, and the feed's live lines (made into messages as they are written). */
export type OutgoingMessage = ViewerMessage | FeedLine;

/** What the server serves and how it bounds its pages. */
export interface ViewerServerOptions {
  readonly feed: ViewerFeed;
  readonly charts: ViewerCharts;
  readonly hello: Omit<HelloMessage, 'k' | 'history'>;
  /** Port to listen on (0 picks a free one). */
  readonly port: number;
  /** Interface (default 127.0.0.1: the viewer is never reachable from other machines). */
  readonly host?: string;
  /** Bytes one page may leave unread before it is cut off (it reconnects and starts over). */
  readonly maxViewerBufferBytes?: number;
  /** The URL's secret (default: 32 random hex digits). */
  readonly token?: string;
  /** The page's bundle (default: the one `npm run build` made). */
  readonly assets?: ViewerAssets;
}

/** A running viewer server. */
export interface ViewerServer {
  /** The page: `http://127.0.0.1:PORT/<token>/`. */
  readonly url: string;
  readonly port: number;
  /** Send messages to every page (batched), after the feed kept them. */
  publish(messages: readonly OutgoingMessage[]): void;
  /** Pages connected now. */
  readonly connectedViewers: number;
  /** Pages cut off so far for leaving more than `maxViewerBufferBytes` unread. */
  readonly droppedViewers: number;
  /** Send what is batched now. */
  flush(): void;
  /** Resolve `true` once a connected page has been written everything, `false` after `timeoutMs`. */
  waitForViewer(timeoutMs: number): Promise<boolean>;
  /** End every page's stream, close every socket and the server: Node can exit. */
  close(): Promise<void>;
}

interface Page {
  readonly response: ServerResponse;
  /** Chart keys this page was sent. */
  readonly charts: Set<string>;
  /** Bytes of the replay sent on connecting, not counted against the bound until written out. */
  replayBytes: number;
}

/**
 * Serve the viewer page on 127.0.0.1 under a random token: the page, its
 * bundled script and stylesheet, and a server-sent event stream of the feed
 * (each machine's chart laid out once and sent before the first actor that
 * needs it, so a page has all it shows once its stream is written). Only `GET` (and `HEAD`) of a URL that starts with
 * the token and comes with this server's own `Host` is answered: the page
 * reads, it can send nothing to the actors. A page that stops reading is cut
 * off once it leaves `maxViewerBufferBytes` unread, so it never holds up the
 * run or grows its memory.
 *
 * @throws ViewerServerError when it cannot listen or the page was not built.
 * @example
 * ```ts
 * const server = await startViewerServer({ feed, charts, hello: { mode: 'live', title: 'my app' }, port: 0 });
 * server.url; // 'http://127.0.0.1:40123/5f0c…/'
 * await server.close();
 * ```
 */
export async function startViewerServer(options: ViewerServerOptions): Promise<ViewerServer> {
  const host = options.host ?? '127.0.0.1';
  const assets = options.assets ?? viewerAssets();
  const token = options.token ?? randomBytes(16).toString('hex');
  const maxBuffered = options.maxViewerBufferBytes ?? DEFAULT_MAX_VIEWER_BUFFER_BYTES;
  const hello: HelloMessage = { k: 'hello', history: options.feed.history, ...options.hello };
  const pages = new Set<Page>();
  const sockets = new Set<Socket>();
  let pending: OutgoingMessage[] = [];
  let timer: NodeJS.Timeout | null = null;
  let droppedViewers = 0;
  let port = options.port;

  const send = (page: Page, messages: readonly OutgoingMessage[]): number => {
    const text = eventText(messages);
    page.response.write(text);
    return Buffer.byteLength(text);
  };
  const chartMessage = (key: string): ChartMessage => {
    try {
      const chart = options.charts.chart(key) ?? null;
      return { k: 'chart', key, chart, error: chart === null ? `no chart ${key}` : null };
    } catch (error) {
      return {
        k: 'chart',
        key,
        chart: null,
        error: `cannot draw ${key}: ${(error as Error).message}`,
      };
    }
  };
  /** Send the page the charts `messages` need that it was not sent yet; returns the bytes written. */
  const sendCharts = (page: Page, messages: readonly OutgoingMessage[]): number => {
    const missing: ChartMessage[] = [];
    for (const message of messages) {
      if (message.k !== 'actor' || message.chart === null || page.charts.has(message.chart))
        continue;
      page.charts.add(message.chart);
      missing.push(chartMessage(message.chart));
    }
    return missing.length === 0 ? 0 : send(page, missing);
  };

  let lastFlushAt = 0;
  const flush = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    lastFlushAt = performance.now();
    if (pending.length === 0) return;
    const batch = pending;
    // written once per batch, whatever the number of pages
    const text = eventText(batch);
    pending = [];
    for (const page of pages) {
      // a page that stopped reading: cut it off (it reconnects for the replay), never buffer more for it
      if (page.response.writableLength > maxBuffered + page.replayBytes) {
        droppedViewers += 1;
        pages.delete(page);
        page.response.destroy();
        continue;
      }
      sendCharts(page, batch);
      page.response.write(text);
    }
  };

  const openStream = (request: IncomingMessage, response: ServerResponse): void => {
    response.writeHead(200, {
      ...securityHeaders,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const page: Page = { response, charts: new Set(), replayBytes: 0 };
    response.write('retry: 1000\n\n');
    page.replayBytes += send(page, [hello]);
    const retained = options.feed.retained();
    page.replayBytes += sendCharts(page, retained);
    for (let start = 0; start < retained.length; start += REPLAY_CHUNK) {
      page.replayBytes += send(page, retained.slice(start, start + REPLAY_CHUNK));
    }
    // written out: from now on only the bound counts
    response.once('drain', () => {
      page.replayBytes = 0;
    });
    pages.add(page);
    const forget = (): void => {
      pages.delete(page);
    };
    response.on('close', forget);
    response.on('error', forget);
  };

  const answer = (request: IncomingMessage, response: ServerResponse): void => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      plain(response, 405, 'the viewer only shows: it takes no requests but GET\n', {
        Allow: 'GET, HEAD',
      });
      return;
    }
    if (!isOwnHost(request.headers.host, host, port)) {
      plain(response, 403, 'this viewer answers only to its own address\n');
      return;
    }
    const route = routeOf(request.url ?? '/', token);
    if (route === null) {
      plain(response, 404, 'not found\n');
      return;
    }
    if (route === '') {
      asset(response, 'text/html; charset=utf-8', pageHtml(hello.title));
    } else if (route === 'viewer.js') {
      asset(response, 'text/javascript; charset=utf-8', assets.script);
    } else if (route === 'viewer.css') {
      asset(response, 'text/css; charset=utf-8', assets.style);
    } else if (route === 'events') {
      openStream(request, response);
    } else {
      plain(response, 404, 'not found\n');
    }
  };

  const server = createServer((request, response) => {
    try {
      answer(request, response);
    } catch (error) {
      plain(response, 500, `${(error as Error).message}\n`);
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  port = await listenOn(server, port, host, ViewerServerError);
  // Watching is best effort: a server failure after it started must never end the run.
  server.on('error', () => {});

  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}/${token}/`,
    port,
    publish(messages) {
      if (messages.length === 0) return;
      if (pages.size === 0) {
        // nobody to send to: the feed keeps what a page will be sent on connecting
        pending = [];
        return;
      }
      for (const message of messages) pending.push(message);
      // A run that keeps the event loop busy (synchronous steps, a synchronous store) would
      // starve a timer: a batch older than BATCH_MS goes out from here, the socket writes at once.
      const now = performance.now();
      if (now - lastFlushAt >= BATCH_MS) {
        flush();
      } else if (timer === null) {
        timer = setTimeout(flush, BATCH_MS);
        timer.unref();
      }
    },
    get connectedViewers() {
      return pages.size;
    },
    get droppedViewers() {
      return droppedViewers;
    },
    flush,
    async waitForViewer(timeoutMs) {
      flush();
      const deadline = Date.now() + Math.max(0, timeoutMs);
      for (;;) {
        for (const page of pages) {
          if (page.response.writableLength === 0) return true;
        }
        if (Date.now() >= deadline) return false;
        await new Promise<void>((resolve) => setTimeout(resolve, 50).unref());
      }
    },
    close() {
      closing ??= (async () => {
        flush();
        // told the stream is over, a page keeps what it has instead of reconnecting to nothing
        for (const page of pages) page.response.end(`data: ${JSON.stringify([{ k: 'end' }])}\n\n`);
        pages.clear();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        await closed;
      })();
      return closing;
    },
  };
}

/** One server-sent event carrying `messages` as a JSON array. */
function eventText(messages: readonly OutgoingMessage[]): string {
  let text = 'data: [';
  for (let index = 0; index < messages.length; index++) {
    if (index > 0) text += ',';
    text += messageJson(messages[index]!);
  }
  return `${text}]\n\n`;
}

/** Sent with every answer: the page loads nothing from elsewhere and leaks no token in a referrer. */
const securityHeaders = {
  'Content-Security-Policy': VIEWER_CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
} as const;

function asset(response: ServerResponse, type: string, body: string): void {
  response.writeHead(200, {
    ...securityHeaders,
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}

function plain(
  response: ServerResponse,
  status: number,
  body: string,
  extra: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...securityHeaders,
    ...extra,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

/**
 * What follows the token in a request's path (`''` for the page itself), or
 * `null` when the path does not start with `/<token>/`.
 *
 * @example
 * ```ts
 * routeOf('/abc/events', 'abc');   // 'events'
 * routeOf('/abc/', 'abc');         // ''
 * routeOf('/abd/events', 'abc');   // null
 * routeOf('/abc', 'abc');          // null (the page's relative links need the slash)
 * ```
 */
export function routeOf(url: string, token: string): string | null {
  const pathname = url.split('?')[0] ?? '';
  const match = /^\/([^/]*)\/(.*)$/.exec(pathname);
  if (match === null) return null;
  const given = Buffer.from(match[1] ?? '');
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return match[2] ?? '';
}

/**
 * Whether a request's `Host` header names this server (its address or
 * `localhost`, with its port): a page of another site that a DNS name
 * pointed at 127.0.0.1 is refused.
 *
 * @example
 * ```ts
 * isOwnHost('127.0.0.1:4000', '127.0.0.1', 4000);  // true
 * isOwnHost('localhost:4000', '127.0.0.1', 4000);  // true
 * isOwnHost('evil.example:4000', '127.0.0.1', 4000); // false
 * ```
 */
export function isOwnHost(header: string | undefined, host: string, port: number): boolean {
  if (header === undefined) return false;
  return [`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`].includes(
    header.toLowerCase(),
  );
}

function pageHtml(title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>arena view: ${escapeXml(title)}</title>
<link rel="stylesheet" href="viewer.css">
<script type="module" src="viewer.js"></script>
</head>
<body>
<noscript>The arena viewer needs JavaScript.</noscript>
</body>
</html>
`;
}
