import type { InspectionEvent, Observer } from 'xstate';
import { directInspection } from '../actors/inspection/directInspection.js';
import type { TraceRecord } from '../actors/inspection/traceRecord.js';
import { keepInspection } from './inspectionMessages.js';
import { traceMessages } from './traceMessages.js';
import { ViewerCharts } from './viewerCharts.js';
import { ViewerOptionError } from './viewerErrors.js';
import { ViewerFeed } from './viewerFeed.js';
import type { ViewerMessage } from './viewerMessages.js';
import { startViewerServer, type ViewerServer, type ViewerServerOptions } from './viewerServer.js';

/**
 * Events (and snapshots) the viewer keeps per actor when `history` is not
 * given (`--view-history`): the scrubber of a live view reaches this far back
 * for each actor.
 *
 * @example
 * ```ts
 * DEFAULT_VIEW_HISTORY; // 500
 * ```
 */
export const DEFAULT_VIEW_HISTORY = 500;
/**
 * The most events a viewer keeps per actor: 100 000 (about 20 MB per busy
 * actor at 200 bytes a message).
 *
 * @example
 * ```ts
 * MAX_VIEW_HISTORY; // 100000
 * await startViewer({ history: 200_000 }); // ViewerOptionError: history must be an integer from 1 to 100000 …
 * ```
 */
export const MAX_VIEW_HISTORY = 100_000;

/** Where the viewer listens and how much it keeps. */
export interface ViewerOptions {
  /** TCP port (default 0: a free port). */
  readonly port?: number;
  /** Interface (default 127.0.0.1: never reachable from other machines). */
  readonly host?: string;
  /** Events kept per actor for the scrubber and pages that connect late (default 500, at most 100 000). */
  readonly history?: number;
  /** Bytes one page may leave unread before it is cut off (default 4 MiB). */
  readonly maxViewerBufferBytes?: number;
  /** What the page's title says (default `live`). */
  readonly title?: string;
}

/** A running viewer: open `url` in a browser. */
export interface Viewer {
  /** The page: `http://127.0.0.1:PORT/<token>/`; the token is its only key. */
  readonly url: string;
  readonly port: number;
  /** Pages connected now. */
  readonly connectedViewers: number;
  /** Pages cut off so far for leaving more than `maxViewerBufferBytes` unread. */
  readonly droppedViewers: number;
  /** Messages the server keeps now over every actor (bounded by the history per actor). */
  readonly keptMessages: number;
  /** Resolve `true` once a page has been sent everything so far, `false` after `timeoutMs`. */
  waitForViewer(timeoutMs: number): Promise<boolean>;
  /** Close every page's stream, every socket and the server: Node can then exit. */
  close(): Promise<void>;
}

/** A viewer fed by actors: pass `inspect` to `createActor` (or `runExperiment`). */
export interface LiveViewer extends Viewer {
  /** XState's `inspect` option: every actor of the system it is given to appears on the page. */
  readonly inspect: Observer<InspectionEvent>;
}

/**
 * Start arena's own inspector page on 127.0.0.1, offline: every actor as a
 * tree, the selected actor's statechart (drawn from its machine, the active
 * states lit, the last transition highlighted), its events with secrets
 * redacted, and a scrubber over the history. Give the returned `inspect` to
 * XState; the page loads nothing from outside the machine. `close()` when
 * done: until then the server keeps Node running.
 *
 * @throws ViewerOptionError for a bad option; ViewerServerError when it cannot listen.
 * @example
 * ```ts
 * import { startViewer } from 'arena-runtime/inspect';
 * import { createActor } from 'xstate';
 *
 * const viewer = await startViewer({ port: 0 });
 * console.error(viewer.url); // http://127.0.0.1:40123/9c1e…/
 * const actor = createActor(trafficLightMachine, { inspect: viewer.inspect }).start();
 * actor.send({ type: 'next' });
 * // … open viewer.url: trafficLight, its green→yellow arrow lit …
 * await viewer.close();
 * ```
 */
export async function startViewer(options: ViewerOptions = {}): Promise<LiveViewer> {
  const history = checkedHistory(options.history);
  const charts = new ViewerCharts();
  const feed = new ViewerFeed({ history });
  const server = await serveFeed(
    feed,
    charts,
    { mode: 'live', title: options.title ?? 'live' },
    options,
  );
  const startedAt = performance.now();
  const inspect = directInspection({
    // The run's own thread pays only for a ring's slot per event, no object: the line, the
    // conversion, redaction and JSON wait for a page (in the server's batched flush).
    next(event) {
      try {
        const type = event.type;
        if (type === '@xstate.microstep' || type === '@xstate.action') return;
        const watched = server.connectedViewers > 0;
        const lines = keepInspection(event, feed, performance.now() - startedAt, charts, watched);
        if (lines !== null) server.publish(lines);
      } catch {
        // Watching is best effort: the viewer never breaks the actors it watches.
      }
    },
  });
  // getters, not a spread: a spread would freeze the counts at their values now
  return Object.defineProperty(viewerOf(server, feed), 'inspect', {
    value: inspect,
    enumerable: true,
  }) as LiveViewer;
}

/**
 * Start the viewer on a recorded trace (`arena run --trace`,
 * `createTraceRecorder`): the same page, with the whole trace to scrub
 * through from its start. A trace holds no machine definitions: arena's own
 * machines are drawn by their id, an app's machines are listed without a
 * chart (watch those live with {@link startViewer}).
 *
 * @throws ViewerOptionError for a bad option; ViewerServerError when it cannot listen.
 * @example
 * ```ts
 * const records = parseTrace(readFileSync('trace.jsonl', 'utf8'), 'trace.jsonl');
 * const viewer = await startTraceViewer(records, { title: 'trace.jsonl' });
 * console.error(viewer.url);
 * ```
 */
export async function startTraceViewer(
  records: readonly TraceRecord[],
  options: Omit<ViewerOptions, 'history'> = {},
): Promise<Viewer> {
  const charts = new ViewerCharts();
  const feed = new ViewerFeed({ history: null });
  // arena's own machines, to draw a trace's actors by their machine id; loaded only for a replay
  const { machinesByName } = await import('../diagram/machineCatalog.js');
  for (const message of traceMessages(records, charts, machinesByName.values())) feed.add(message);
  const server = await serveFeed(
    feed,
    charts,
    { mode: 'replay', title: options.title ?? 'trace' },
    options,
  );
  return viewerOf(server, feed);
}

/** Serve `feed` on the port, host and buffer bound the options give, each checked. */
function serveFeed(
  feed: ViewerFeed,
  charts: ViewerCharts,
  hello: ViewerServerOptions['hello'],
  options: Omit<ViewerOptions, 'history'>,
): Promise<ViewerServer> {
  return startViewerServer({
    feed,
    charts,
    hello,
    port: checkedPort(options.port),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.maxViewerBufferBytes !== undefined
      ? { maxViewerBufferBytes: checkedBuffer(options.maxViewerBufferBytes) }
      : {}),
  });
}

function viewerOf(server: ViewerServer, feed: ViewerFeed): Viewer {
  return {
    url: server.url,
    port: server.port,
    get connectedViewers() {
      return server.connectedViewers;
    },
    get droppedViewers() {
      return server.droppedViewers;
    },
    get keptMessages() {
      return feed.keptMessages;
    },
    waitForViewer: (timeoutMs) => server.waitForViewer(timeoutMs),
    close: () => server.close(),
  };
}

/**
 * The events to keep per actor: {@link DEFAULT_VIEW_HISTORY} when not given,
 * else an integer from 1 to {@link MAX_VIEW_HISTORY}.
 *
 * @throws ViewerOptionError naming the option and the range.
 * @example
 * ```ts
 * checkedHistory(undefined); // 500
 * checkedHistory(0);         // ViewerOptionError: history must be an integer from 1 to 100000 (events kept per actor), got 0
 * ```
 */
export function checkedHistory(history: number | undefined): number {
  const chosen = history ?? DEFAULT_VIEW_HISTORY;
  if (!Number.isInteger(chosen) || chosen < 1 || chosen > MAX_VIEW_HISTORY) {
    throw new ViewerOptionError(
      `history must be an integer from 1 to ${MAX_VIEW_HISTORY} (events kept per actor), got ${String(chosen)}`,
    );
  }
  return chosen;
}

function checkedPort(port: number | undefined): number {
  const chosen = port ?? 0;
  if (!Number.isInteger(chosen) || chosen < 0 || chosen > 65_535) {
    throw new ViewerOptionError(
      `port must be an integer from 0 to 65535 (0 picks a free one), got ${String(chosen)}`,
    );
  }
  return chosen;
}

function checkedBuffer(bytes: number): number {
  if (!Number.isInteger(bytes) || bytes < 1) {
    throw new ViewerOptionError(
      `maxViewerBufferBytes must be a positive integer, got ${String(bytes)}`,
    );
  }
  return bytes;
}

export type { ViewerMessage };
