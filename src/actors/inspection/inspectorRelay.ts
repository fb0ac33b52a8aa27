import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import type { WebSocket } from 'ws';
import type { InspectionEvent, Observer } from 'xstate';
import { listenOn } from '../../ports/runtime/listenOn.js';
import { importWithPeers, optionalPeers } from '../../ports/runtime/optionalPeers.js';
import { InspectorOptionError, InspectorRelayError } from './inspectorErrors.js';
import { createInspectorReplay, type InspectorReplayOptions } from './inspectorReplay.js';
import { isAllowedOrigin, isControlMessage, STATELY_INSPECTOR_ORIGIN } from './inspectorViewers.js';
import { toJsonSafe } from './jsonSafe.js';

export { InspectorOptionError, InspectorRelayError } from './inspectorErrors.js';

/** Where and how the relay listens, and what it keeps for late viewers. */
export interface InspectorRelayOptions extends InspectorReplayOptions {
  /** TCP port of the page and the WebSocket (default 8080, Stately's; 0 picks a free port). */
  readonly port?: number;
  /** Interface to listen on (default 127.0.0.1: the relay is never reachable from other machines). */
  readonly host?: string;
  /** The Stately inspector page the bridge page embeds (default https://stately.ai/inspect); its origin may connect. */
  readonly inspectorUrl?: string;
  /** More page origins allowed to connect, besides the inspector's and localhost / 127.0.0.1 ones. */
  readonly allowedOrigins?: readonly string[];
  /** Largest message a client may send, in bytes (default 4 096); a bigger one closes that client with 1009. */
  readonly maxClientMessageBytes?: number;
  /**
   * Most bytes a viewer may leave unread in the relay's memory, past what it
   * was sent on connecting (default 4 MiB): a viewer over it when the next
   * event comes is dropped (its connection cut), so stalled viewers cannot
   * grow the run's memory.
   */
  readonly maxViewerBufferBytes?: number;
}

/**
 * The default of `maxViewerBufferBytes`: 4 MiB unread per viewer.
 *
 * @example
 * ```ts
 * DEFAULT_MAX_VIEWER_BUFFER_BYTES; // 4194304
 * ```
 */
export const DEFAULT_MAX_VIEWER_BUFFER_BYTES = 4 * 1024 * 1024;

/** What clients sent the relay: viewers may only send the inspector's control messages. */
export interface ClientMessageCounts {
  /** Stately inspector control messages (`@statelyai.connected`...). */
  readonly control: number;
  /** Everything else, dropped: never broadcast, never kept. */
  readonly dropped: number;
}

/** A running relay between a run's actors and Stately inspector pages. */
export interface InspectorRelay {
  /** The page to open: it embeds the Stately inspector and feeds it the events. */
  readonly url: string;
  /** The relay's WebSocket; a viewer receives every event the run emits as Stately JSON. */
  readonly webSocketUrl: string;
  readonly port: number;
  /** Pass it as XState's `inspect` option (or `runExperiment`'s). */
  readonly inspect: Observer<InspectionEvent>;
  /** Clients connected now. */
  readonly connectedClients: number;
  /** Messages clients have sent so far. */
  readonly clientMessages: ClientMessageCounts;
  /** Viewers cut off so far for leaving more than `maxViewerBufferBytes` unread. */
  readonly droppedViewers: number;
  /** Bytes the relay holds now for its viewers, sent but not yet taken by their sockets (`bufferedAmount`). */
  readonly unreadBytes: number;
  /** Resolve once every event so far has been converted and sent to every client. */
  flush(): Promise<void>;
  /**
   * Flush, then resolve `true` as soon as a connected viewer has been sent
   * everything so far (at once if one has), or `false` after `timeoutMs`.
   */
  waitForViewer(timeoutMs: number): Promise<boolean>;
  /** Flush, close every client and the server, and release the port; Node can then exit. */
  close(): Promise<void>;
}

/** Per client: messages handed to the socket and not yet written out, and bytes of its replay not yet written. */
interface ClientState {
  pending: number;
  replayBytes: number;
}

/**
 * Start a local Stately inspector relay: `@statelyai/inspect`'s inspector
 * turns XState inspection events into Stately's format, and this relay sends
 * them over a WebSocket to every connected viewer, and serves a bridge page
 * that embeds the Stately inspector. Unlike `@statelyai/inspect/server`, it
 * listens on 127.0.0.1 only, relays only what the run emits (a client may send
 * the inspector's control messages, nothing else is relayed or kept), refuses
 * page origins other than the Stately inspector's and localhost's, caps what a
 * client may send, gives a late viewer every actor's registration and latest
 * snapshot before the recent events, cuts off a viewer that leaves more than
 * `maxViewerBufferBytes` unread, and `close()` really lets Node exit.
 *
 * @throws InspectorRelayError when it cannot listen.
 * @throws InspectorOptionError when a limit is not a positive integer.
 * @example
 * ```ts
 * const relay = await startInspectorRelay({ port: 0 });
 * console.log(relay.url); // http://127.0.0.1:41234
 * const actor = createActor(evaluationTerminationMachine, { input, inspect: relay.inspect });
 * actor.start();
 * // … open relay.url in a browser to watch the actor …
 * await relay.waitForViewer(30_000); // true once a viewer has everything
 * await relay.close();
 * ```
 */
export async function startInspectorRelay(
  options: InspectorRelayOptions = {},
): Promise<InspectorRelay> {
  const host = options.host ?? '127.0.0.1';
  const inspectorUrl = options.inspectorUrl ?? `${STATELY_INSPECTOR_ORIGIN}/inspect`;
  const maxPayload = positiveOption('maxClientMessageBytes', options.maxClientMessageBytes, 4096);
  const maxBuffered = positiveOption(
    'maxViewerBufferBytes',
    options.maxViewerBufferBytes,
    DEFAULT_MAX_VIEWER_BUFFER_BYTES,
  );
  // Loaded only when a relay starts: a run without --inspect needs neither package.
  const [{ createInspector }, { WebSocketServer }] = await importWithPeers(
    [optionalPeers['@statelyai/inspect'], optionalPeers.ws],
    'arena-runtime/inspect (the inspector relay)',
    () => Promise.all([import('@statelyai/inspect'), import('ws')]),
  );
  const replay = createInspectorReplay(options);
  const allowedOrigins = [originOf(inspectorUrl), ...(options.allowedOrigins ?? [])].filter(
    (origin): origin is string => origin !== null,
  );
  const namedOrigins = [...new Set([STATELY_INSPECTOR_ORIGIN, ...allowedOrigins])].join(', ');
  const sockets = new Set<Socket>();
  const clients = new Map<WebSocket, ClientState>();
  const waiters = new Set<() => void>();
  const counts = { control: 0, dropped: 0 };
  let droppedViewers = 0;
  let port = options.port ?? 8080;

  const httpServer = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(bridgePage(`ws://${host}:${port}`, inspectorUrl));
  });
  httpServer.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  port = await listenOn(httpServer, port, host, InspectorRelayError);
  const webSocketServer = new WebSocketServer({ noServer: true, maxPayload });
  // Watching is best effort: a relay failure after it started must never end the run.
  httpServer.on('error', () => {});
  webSocketServer.on('error', () => {});

  httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const origin = request.headers.origin;
    if (!isAllowedOrigin(origin, allowedOrigins)) {
      refuse(
        socket,
        `origin ${JSON.stringify(origin)} may not watch this run: the relay accepts pages from ${namedOrigins} and from localhost / 127.0.0.1`,
      );
      return;
    }
    webSocketServer.handleUpgrade(request, socket, head, (client) => {
      webSocketServer.emit('connection', client, request);
    });
  });

  const notifyWaiters = (): void => {
    for (const waiter of waiters) waiter();
  };
  const sendTo = (client: WebSocket, state: ClientState, message: string, last = false): void => {
    state.pending += 1;
    client.send(message, () => {
      state.pending -= 1;
      // the replay is written out: from now on only the bound counts
      if (last) state.replayBytes = 0;
      if (state.pending === 0) notifyWaiters();
    });
  };
  const broadcast = (message: string): void => {
    for (const [client, state] of clients) {
      if (client.readyState !== 1) continue;
      // a viewer that stopped reading: cut it off (it may reconnect for the replay), never buffer more for it
      if (client.bufferedAmount > maxBuffered + state.replayBytes) {
        droppedViewers += 1;
        clients.delete(client);
        client.terminate();
        continue;
      }
      sendTo(client, state, message);
    }
  };

  webSocketServer.on('connection', (client: WebSocket) => {
    const replayed = replay.messages();
    const replayBytes = replayed.reduce((sum, message) => sum + Buffer.byteLength(message), 0);
    const state: ClientState = { pending: 0, replayBytes };
    clients.set(client, state);
    replayed.forEach((message, index) => {
      sendTo(client, state, message, index === replayed.length - 1);
    });
    // Clients are viewers: what they send is never relayed, only control messages are understood.
    client.on('message', (data: Buffer, isBinary: boolean) => {
      if (isControlMessage(data.toString('utf8'), isBinary)) counts.control += 1;
      else counts.dropped += 1;
    });
    client.on('close', () => {
      clients.delete(client);
      notifyWaiters();
    });
    // ws closes the client itself (1009 for a message over maxPayload); only this client.
    client.on('error', () => {});
    notifyWaiters();
  });

  const inspector = createInspector({
    send: (event) => {
      const message = toStatelyMessage(event);
      replay.record(event, message);
      broadcast(message);
    },
  });

  const flush = async (): Promise<void> => {
    // The inspector converts each event in a setTimeout(0); a later timer runs after them all.
    await new Promise((resolve) => setTimeout(resolve, 1));
    const deadline = Date.now() + 2000;
    while (
      [...clients.keys()].some((client) => client.bufferedAmount > 0) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  const waitForViewer = async (timeoutMs: number): Promise<boolean> => {
    await flush();
    return new Promise<boolean>((resolve) => {
      const finish = (seen: boolean): void => {
        clearTimeout(timer);
        waiters.delete(check);
        resolve(seen);
      };
      const check = (): void => {
        for (const [client, state] of clients) {
          if (client.readyState === 1 && state.pending === 0) {
            finish(true);
            return;
          }
        }
      };
      const timer = setTimeout(() => finish(false), Math.max(0, timeoutMs));
      waiters.add(check);
      check();
    });
  };

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await flush();
      await closeClients([...clients.keys()]);
      await new Promise<void>((resolve) => webSocketServer.close(() => resolve()));
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await closed;
    })();
    return closing;
  };

  return {
    url: `http://${host}:${port}`,
    webSocketUrl: `ws://${host}:${port}`,
    port,
    inspect: inspector.inspect,
    get connectedClients() {
      return clients.size;
    },
    get clientMessages() {
      return { ...counts };
    },
    get droppedViewers() {
      return droppedViewers;
    },
    get unreadBytes() {
      return [...clients.keys()].reduce((sum, client) => sum + client.bufferedAmount, 0);
    },
    flush,
    waitForViewer,
    close,
  };
}

/**
 * The WebSocket message of one Stately event, with nothing live left in it.
 * `@statelyai/inspect` already serialises a snapshot event's snapshot
 * (depth-limited); an actor event's snapshot and every event payload come
 * through as they are, so only those are made JSON-safe (a second pass over
 * the whole event would cost as much as the first).
 *
 * @internal the relay's own conversion; its type is `@statelyai/inspect`'s, an optional peer.
 * @example
 * ```ts
 * toStatelyMessage({ type: '@xstate.event', event: { type: 'tick', at: Number.NaN }, … });
 * // '{"type":"@xstate.event","event":{"type":"tick","at":"__nan__"},…}'
 * ```
 */
export function toStatelyMessage(event: StatelyInspectionEvent): string {
  const safe: Record<string, unknown> = { ...event };
  if ('event' in event) safe.event = toJsonSafe(event.event, { maxDepth: 10 });
  if (event.type === '@xstate.actor') safe.snapshot = toJsonSafe(event.snapshot, { maxDepth: 10 });
  return JSON.stringify(safe);
}

/** A relay limit: `fallback` when not given, else a positive integer. */
function positiveOption(name: string, value: number | undefined, fallback: number): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < 1) {
    throw new InspectorOptionError(`${name} must be a positive integer, got ${String(chosen)}`);
  }
  return chosen;
}

/** Answer a refused WebSocket handshake with 403 and why, then hang up. */
function refuse(socket: Duplex, why: string): void {
  const body = `${why}\n`;
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Close clients gracefully, then terminate the ones still open after a second. */
async function closeClients(clients: readonly WebSocket[]): Promise<void> {
  await Promise.all(
    clients.map(
      (client) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            client.terminate();
            resolve();
          }, 1000);
          client.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          client.close(1001, 'the run is over');
        }),
    ),
  );
}

function bridgePage(webSocketUrl: string, inspectorUrl: string): string {
  return `<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <title>arena: Stately inspector</title>
  <style>html, body { height: 100%; margin: 0; } iframe { width: 100%; height: 100%; border: none; }</style>
</head>
<body>
  <iframe id="inspector" src="${inspectorUrl}"></iframe>
  <script>
    const frame = document.getElementById('inspector');
    const pending = [];
    let connected = false;
    window.addEventListener('message', (message) => {
      if (message.data && message.data.type === '@statelyai.connected') {
        connected = true;
        for (const event of pending.splice(0)) frame.contentWindow.postMessage(event, '*');
        if (socket.readyState === 1) socket.send(JSON.stringify({ type: '@statelyai.connected' }));
      }
    });
    const socket = new WebSocket(${JSON.stringify(webSocketUrl)});
    socket.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (connected) frame.contentWindow.postMessage(event, '*');
      else pending.push(event);
    };
  </script>
</body>
</html>`;
}
