import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { createInspector, type StatelyInspectionEvent } from '@statelyai/inspect';
import { type WebSocket, WebSocketServer } from 'ws';
import type { InspectionEvent, Observer } from 'xstate';
import { ArenaError } from '../domain/shared/errors.js';
import { toJsonSafe } from './jsonSafe.js';

/** Where and how the relay listens. */
export interface InspectorRelayOptions {
  /** TCP port of the page and the WebSocket (default 8080, Stately's; 0 picks a free port). */
  readonly port?: number;
  /** Interface to listen on (default 127.0.0.1: the relay is never reachable from other machines). */
  readonly host?: string;
  /** The Stately inspector page the bridge page embeds (default https://stately.ai/inspect). */
  readonly inspectorUrl?: string;
  /** Events kept to replay to a client that connects late (default 10 000, oldest dropped). */
  readonly replayLimit?: number;
}

/** A running relay between a run's actors and Stately inspector pages. */
export interface InspectorRelay {
  /** The page to open: it embeds the Stately inspector and feeds it the events. */
  readonly url: string;
  /** The relay's WebSocket; any client receives every event as Stately JSON. */
  readonly webSocketUrl: string;
  readonly port: number;
  /** Pass it as XState's `inspect` option (or `runExperiment`'s). */
  readonly inspect: Observer<InspectionEvent>;
  /** Clients connected now. */
  readonly connectedClients: number;
  /** Resolve once every event so far has been converted and sent to every client. */
  flush(): Promise<void>;
  /** Flush, close every client and the server, and release the port; Node can then exit. */
  close(): Promise<void>;
}

/** The relay could not start (the port is taken, the host unknown...). */
export class InspectorRelayError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INSPECTOR_RELAY', message, options);
  }
}

/**
 * Start a local Stately inspector relay: `@statelyai/inspect`'s inspector
 * turns XState inspection events into Stately's format, and this relay sends
 * them over a WebSocket to every connected client (replaying what they
 * missed), and serves a bridge page that embeds the Stately inspector. It
 * does what `@statelyai/inspect/server` does, but listens on 127.0.0.1 only,
 * reports a taken port as an error, needs no loopback WebSocket client, and
 * `close()` really lets Node exit (it closes every client socket).
 *
 * @throws InspectorRelayError when it cannot listen.
 * @example
 * ```ts
 * const relay = await startInspectorRelay({ port: 0 });
 * console.log(relay.url); // http://127.0.0.1:41234
 * const actor = createActor(evaluationTerminationMachine, { input, inspect: relay.inspect });
 * actor.start();
 * // … open relay.url in a browser to watch the actor …
 * await relay.close();
 * ```
 */
export async function startInspectorRelay(
  options: InspectorRelayOptions = {},
): Promise<InspectorRelay> {
  const host = options.host ?? '127.0.0.1';
  const inspectorUrl = options.inspectorUrl ?? 'https://stately.ai/inspect';
  const replayLimit = options.replayLimit ?? 10_000;
  const replay: string[] = [];
  const sockets = new Set<Socket>();
  let port = options.port ?? 8080;

  const httpServer = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(bridgePage(`ws://${host}:${port}`, inspectorUrl));
  });
  httpServer.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  port = await listen(httpServer, port, host);
  const webSocketServer = new WebSocketServer({ server: httpServer });
  // Watching is best effort: a relay failure after it started must never end the run.
  httpServer.on('error', () => {});
  webSocketServer.on('error', () => {});

  const broadcast = (message: string, except?: WebSocket): void => {
    replay.push(message);
    if (replay.length > replayLimit) replay.shift();
    for (const client of webSocketServer.clients) {
      if (client !== except && client.readyState === 1) client.send(message);
    }
  };
  webSocketServer.on('connection', (client: WebSocket) => {
    for (const message of replay) client.send(message);
    // Like Stately's relay: events another process inspects reach every other client.
    client.on('message', (data: Buffer) => broadcast(data.toString('utf8'), client));
    client.on('error', () => client.terminate());
  });

  const inspector = createInspector({
    send: (event) => broadcast(toStatelyMessage(event)),
  });

  const flush = async (): Promise<void> => {
    // The inspector converts each event in a setTimeout(0); a later timer runs after them all.
    await new Promise((resolve) => setTimeout(resolve, 1));
    const deadline = Date.now() + 2000;
    while (
      [...webSocketServer.clients].some((client) => client.bufferedAmount > 0) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await flush();
      await closeClients([...webSocketServer.clients]);
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
      return webSocketServer.clients.size;
    },
    flush,
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

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'the port is in use' : error.message;
      reject(
        new InspectorRelayError(
          `cannot listen on ${host}:${port}: ${why} (${error.code ?? 'error'})`,
          {
            cause: error,
          },
        ),
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.removeListener('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
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
