import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { ViewerCharts } from '../../../src/viewer/viewerCharts.js';
import { ViewerFeed } from '../../../src/viewer/viewerFeed.js';
import type { ViewerMessage } from '../../../src/viewer/viewerMessages.js';
import {
  isOwnHost,
  routeOf,
  startViewerServer,
  VIEWER_CONTENT_SECURITY_POLICY,
  type ViewerServer,
} from '../../../src/viewer/viewerServer.js';

const assets = { script: 'console.log("viewer");', style: 'body{}' };
const token = 'a'.repeat(32);
let server: ViewerServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(
  feed = new ViewerFeed({ history: 10 }),
  maxViewerBufferBytes?: number,
  charts = new ViewerCharts(),
) {
  server = await startViewerServer({
    feed,
    charts,
    hello: { mode: 'live', title: 'test' },
    port: 0,
    token,
    assets,
    ...(maxViewerBufferBytes !== undefined ? { maxViewerBufferBytes } : {}),
  });
  return server;
}

/** One raw HTTP exchange, with the Host header chosen. */
function get(
  port: number,
  path: string,
  options: { method?: string; host?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `127.0.0.1:${port}` },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Read the first `count` server-sent events of the page's stream, then hang up. */
function readStream(port: number, count: number): Promise<ViewerMessage[][]> {
  const received: ViewerMessage[][] = [];
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path: `/${token}/events` }, (response) => {
      expect(response.headers['content-type']).toContain('text/event-stream');
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        for (;;) {
          const end = text.indexOf('\n\n');
          if (end === -1) break;
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          if (block.startsWith('data: ')) received.push(JSON.parse(block.slice(6)));
          if (received.length === count) {
            outgoing.destroy();
            resolve(received);
          }
        }
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('the viewer server', () => {
  it('serves the page, its script and style under the token, each with the CSP', async () => {
    const { port, url } = await start();
    expect(url).toBe(`http://127.0.0.1:${port}/${token}/`);
    for (const [path, type, body] of [
      [`/${token}/`, 'text/html', '<script type="module" src="viewer.js"></script>'],
      [`/${token}/viewer.js`, 'text/javascript', assets.script],
      [`/${token}/viewer.css`, 'text/css', assets.style],
    ] as const) {
      const answer = await get(port, path);
      expect(answer.status, path).toBe(200);
      expect(String(answer.headers['content-type'])).toContain(type);
      expect(answer.headers['content-security-policy']).toBe(VIEWER_CONTENT_SECURITY_POLICY);
      expect(answer.body).toContain(body);
    }
    expect(VIEWER_CONTENT_SECURITY_POLICY).toMatch(/^default-src 'self';/);
  });

  it('answers 404 to a wrong, short or missing token, with the CSP too', async () => {
    const { port } = await start();
    for (const path of [
      '/',
      `/${'b'.repeat(32)}/`,
      `/${token.slice(1)}/`,
      `/${token}`,
      '/viewer.js',
    ]) {
      const answer = await get(port, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain(assets.script);
      expect(answer.headers['content-security-policy']).toBe(VIEWER_CONTENT_SECURITY_POLICY);
    }
  });

  it('refuses another Host (a DNS name pointed at 127.0.0.1) and every method but GET', async () => {
    const { port } = await start();
    expect((await get(port, `/${token}/`, { host: `evil.example:${port}` })).status).toBe(403);
    expect((await get(port, `/${token}/`, { host: `localhost:${port}` })).status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await get(port, `/${token}/events`, { method });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
    }
  });

  it('streams the hello, what the feed kept, then what is published, as server-sent events', async () => {
    const feed = new ViewerFeed({ history: 10 });
    const registered = {
      k: 'actor',
      seq: 0,
      at: 0,
      sid: 'x:0',
      id: 'x:0',
      machine: 'door',
      parent: null,
      chart: null,
    } as const;
    feed.add(registered);
    const { port } = await start(feed);
    const done = readStream(port, 3);
    while (server!.connectedViewers === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const next = {
      k: 'snapshot',
      seq: 1,
      at: 1,
      sid: 'x:0',
      event: 'open',
      value: 'open',
      status: 'active',
    } as const;
    feed.add(next);
    server!.publish([next]);
    expect(await done).toEqual([
      [{ k: 'hello', history: 10, mode: 'live', title: 'test' }],
      [registered],
      [next],
    ]);
  });

  it("sends each machine's chart once, before the first actor that needs it", async () => {
    const door = createMachine({
      id: 'door',
      initial: 'closed',
      states: { closed: { on: { open: 'opened' } }, opened: { on: { close: 'closed' } } },
    });
    const charts = new ViewerCharts();
    const feed = new ViewerFeed({ history: 10 });
    const chart = charts.keyForLogic(door);
    expect(chart).toBe('door');
    for (const seq of [0, 1]) {
      feed.add({
        k: 'actor',
        seq,
        at: seq,
        sid: `x:${seq}`,
        id: `x:${seq}`,
        machine: 'door',
        parent: null,
        chart,
      });
    }
    const { port } = await start(feed, undefined, charts);
    const [hello, sent, kept] = await readStream(port, 3);
    expect(hello?.[0]?.k).toBe('hello');
    expect(sent).toHaveLength(1);
    const message = sent![0]!;
    expect(message.k === 'chart' && message.key).toBe('door');
    expect(message.k === 'chart' && message.chart?.svg).toContain('<g data-state="door.opened">');
    expect(message.k === 'chart' && message.chart?.edges).toContainEqual({
      owner: 'closed',
      index: 0,
      source: 'closed',
      target: 'opened',
      eventType: 'open',
    });
    expect(kept?.map((line) => line.k)).toEqual(['actor', 'actor']);
  });

  it('cuts off a page that stops reading, and close() lets go of every socket', async () => {
    const feed = new ViewerFeed({ history: 10 });
    const { port } = await start(feed, 64 * 1024);
    // A page that connects and never reads.
    const stalled = request({ host: '127.0.0.1', port, path: `/${token}/events` }, (response) =>
      response.pause(),
    );
    stalled.on('error', () => {});
    stalled.end();
    while (server!.connectedViewers === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const payload = 'x'.repeat(4096);
    for (let seq = 0; seq < 4000 && server!.droppedViewers === 0; seq++) {
      server!.publish([
        { k: 'event', seq, at: seq, sid: 'x:0', type: 'tick', payload, source: null },
      ]);
      server!.flush();
      if (seq % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server!.droppedViewers).toBe(1);
    expect(server!.connectedViewers).toBe(0);
    await server!.close();
    server = null;
  });
});

describe('routeOf and isOwnHost', () => {
  it('reads the route after the token, and nothing without it', () => {
    expect(routeOf('/abc/events', 'abc')).toBe('events');
    expect(routeOf('/abc/?x=1', 'abc')).toBe('');
    expect(routeOf('/abd/events', 'abc')).toBeNull();
    expect(routeOf('/abc', 'abc')).toBeNull();
  });

  it("accepts only the server's own address, with its port", () => {
    expect(isOwnHost('127.0.0.1:4000', '127.0.0.1', 4000)).toBe(true);
    expect(isOwnHost('LOCALHOST:4000', '127.0.0.1', 4000)).toBe(true);
    expect(isOwnHost('127.0.0.1:4001', '127.0.0.1', 4000)).toBe(false);
    expect(isOwnHost(undefined, '127.0.0.1', 4000)).toBe(false);
  });
});
