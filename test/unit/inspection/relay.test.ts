import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { assign, createActor, setup } from 'xstate';
import {
  InspectorOptionError,
  type InspectorRelay,
  startInspectorRelay,
} from '../../../src/actors/inspection/inspectorRelay.js';
import { repoRoot } from '../../support/cli.js';

// Real relays on 127.0.0.1 with real WebSocket clients.

interface StatelyMessage {
  type: string;
  name?: string;
  sessionId: string;
  parentId?: string;
  snapshot?: { status?: string; value?: unknown; context?: { ticks?: number } };
  event?: { type?: string };
}

const worker = setup({}).createMachine({
  id: 'worker',
  initial: 'waiting',
  states: { waiting: { on: { ping: 'pinged' } }, pinged: {} },
});

/** A root that counts ticks, with one child that never changes after it starts. */
const counter = setup({
  types: { context: {} as { ticks: number }, events: {} as { type: 'tick' } | { type: 'stop' } },
  actors: { worker },
  actions: { countTick: assign({ ticks: ({ context }) => context.ticks + 1 }) },
}).createMachine({
  id: 'counter',
  context: { ticks: 0 },
  invoke: { id: 'worker', src: 'worker' },
  initial: 'counting',
  states: {
    counting: { on: { tick: { actions: 'countTick' }, stop: 'stopped' } },
    stopped: { type: 'final' },
  },
});

const relays: InspectorRelay[] = [];
afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});

async function startRelay(options: Parameters<typeof startInspectorRelay>[0] = {}) {
  const relay = await startInspectorRelay({ port: 0, ...options });
  relays.push(relay);
  return relay;
}

/** Run the counter through `ticks` ticks, then (unless told not to) to its final state. */
function runCounter(relay: InspectorRelay, ticks: number, { stop = true } = {}) {
  const actor = createActor(counter, { inspect: relay.inspect });
  actor.start();
  for (let tick = 0; tick < ticks; tick++) actor.send({ type: 'tick' });
  if (stop) actor.send({ type: 'stop' });
  return actor;
}

interface Viewer {
  readonly socket: WebSocket;
  readonly received: StatelyMessage[];
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;
  /** Resolves once a message matching `predicate` has arrived. */
  until(predicate: (message: StatelyMessage) => boolean): Promise<void>;
}

function connect(relay: InspectorRelay, origin?: string): Viewer {
  const socket = new WebSocket(relay.webSocketUrl, origin === undefined ? undefined : { origin });
  const received: StatelyMessage[] = [];
  const listeners = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    received.push(JSON.parse(data.toString('utf8')));
    for (const listener of listeners) listener();
  });
  socket.on('error', () => {});
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request: unknown, response: { statusCode: number }) =>
      reject(new Error(`refused with ${response.statusCode}`)),
    );
  });
  const closed = new Promise<number>((resolve) =>
    socket.on('close', (code: number) => resolve(code)),
  );
  return {
    socket,
    received,
    opened,
    closed,
    until: (predicate) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (received.some(predicate)) {
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
        check();
      }),
  };
}

const isRootDone = (message: StatelyMessage) =>
  message.type === '@xstate.snapshot' && message.snapshot?.status === 'done';

/** Wait (polling the relay, not the clock) until it has counted `total` client messages. */
async function untilCounted(relay: InspectorRelay, total: number): Promise<void> {
  while (relay.clientMessages.control + relay.clientMessages.dropped < total) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const forged: StatelyMessage = {
  type: '@xstate.actor',
  name: 'forged',
  sessionId: 'forged:1',
  snapshot: { status: 'active', value: 'evil' },
};

describe('the inspector relay serves viewers', () => {
  it("relays no client's message to another client, and keeps none for later clients", async () => {
    const relay = await startRelay();
    const sender = connect(relay);
    const watcher = connect(relay);
    await Promise.all([sender.opened, watcher.opened]);
    sender.socket.send(JSON.stringify(forged));
    sender.socket.send(
      JSON.stringify({ type: '@xstate.event', sessionId: 'x:0', event: { type: 'stop' } }),
    );
    sender.socket.send(JSON.stringify({ type: '@statelyai.connected' }));
    await untilCounted(relay, 3);
    expect(relay.clientMessages).toEqual({ control: 1, dropped: 2 });

    runCounter(relay, 3);
    await watcher.until(isRootDone);
    const late = connect(relay);
    await late.until(isRootDone);

    for (const viewer of [sender, watcher, late]) {
      expect(viewer.received.some((message) => message.sessionId === 'forged:1')).toBe(false);
      expect(viewer.received.filter((message) => message.event?.type === 'stop')).toHaveLength(
        // the run's own stop: its @xstate.event and the final @xstate.snapshot it caused
        2,
      );
      expect(viewer.received.some((message) => message.type === '@statelyai.connected')).toBe(
        false,
      );
    }
    expect(late.received.map((message) => message.type)).toEqual(
      watcher.received.map((message) => message.type),
    );
  });

  it('refuses a page from another origin with 403, and lets the inspector and localhost in', async () => {
    const relay = await startRelay();
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.evil.example']) {
      await expect(connect(relay, origin).opened).rejects.toThrow('refused with 403');
    }
    const response = await new Promise<string>((resolve) => {
      const socket = new WebSocket(relay.webSocketUrl, { origin: 'https://evil.example' });
      socket.on('error', () => {});
      socket.once(
        'unexpected-response',
        (_request: unknown, incoming: NodeJS.ReadableStream & { statusCode: number }) => {
          let body = '';
          incoming.on('data', (chunk: Buffer) => {
            body += chunk.toString('utf8');
          });
          incoming.on('end', () => resolve(`${incoming.statusCode} ${body}`));
        },
      );
    });
    expect(response).toBe(
      '403 origin "https://evil.example" may not watch this run: the relay accepts pages from https://stately.ai and from localhost / 127.0.0.1\n',
    );
    const allowed = [
      'https://stately.ai',
      'http://localhost:5173',
      relay.url,
      'http://[::1]:3000',
      undefined,
    ].map((origin) => connect(relay, origin));
    await Promise.all(allowed.map((viewer) => viewer.opened));
    expect(relay.connectedClients).toBe(allowed.length);
  });

  it('lets in the origin of a custom inspector page and the origins it is given', async () => {
    const relay = await startRelay({
      inspectorUrl: 'https://inspector.example/inspect',
      allowedOrigins: ['https://dash.example'],
    });
    await Promise.all(
      ['https://inspector.example', 'https://dash.example', 'https://stately.ai'].map(
        (origin) => connect(relay, origin).opened,
      ),
    );
    await expect(connect(relay, 'https://other.example').opened).rejects.toThrow(
      'refused with 403',
    );
    expect(relay.connectedClients).toBe(3);
  });

  it('closes a client that sends an oversized message with 1009, and only that client', async () => {
    const relay = await startRelay({ maxClientMessageBytes: 1024 });
    const flooder = connect(relay);
    const watcher = connect(relay);
    await Promise.all([flooder.opened, watcher.opened]);
    flooder.socket.send('x'.repeat(1025));
    expect(await flooder.closed).toBe(1009);
    runCounter(relay, 2);
    await watcher.until(isRootDone);
    expect(watcher.socket.readyState).toBe(WebSocket.OPEN);
    expect(relay.connectedClients).toBe(1);
  });

  it('gives a late client every registration and latest snapshot first, and no orphan events', async () => {
    const relay = await startRelay({ recentEvents: 50 });
    const early = connect(relay);
    await early.opened;
    // The root stays active so that its worker's one snapshot stays the old one.
    runCounter(relay, 200, { stop: false });
    const hasAllTicks = (message: StatelyMessage) =>
      message.type === '@xstate.snapshot' && message.snapshot?.context?.ticks === 200;
    await early.until(hasAllTicks);
    expect(early.received.length).toBeGreaterThan(400);

    const late = connect(relay);
    await late.until(hasAllTicks);
    const registrations = late.received.filter((message) => message.type === '@xstate.actor');
    expect(registrations.map((message) => message.name)).toEqual(['counter', 'worker']);
    expect(late.received.slice(0, 2)).toEqual(registrations);
    const [root, child] = registrations as [StatelyMessage, StatelyMessage];
    expect(child.parentId).toBe(root.sessionId);
    // The worker's only snapshot is older than the 50 recent events: it comes right after.
    const workerSnapshot = late.received[2]!;
    expect(workerSnapshot).toMatchObject({
      type: '@xstate.snapshot',
      sessionId: child.sessionId,
      snapshot: { status: 'active', value: 'waiting' },
    });
    expect(late.received).toHaveLength(2 + 1 + 50);
    const known = new Set(registrations.map((message) => message.sessionId));
    expect(late.received.every((message) => known.has(message.sessionId))).toBe(true);
    const lastOf = (messages: StatelyMessage[], sessionId: string) =>
      messages
        .filter((message) => message.type === '@xstate.snapshot' && message.sessionId === sessionId)
        .at(-1);
    for (const sessionId of known) {
      expect(lastOf(late.received, sessionId)).toEqual(lastOf(early.received, sessionId));
    }
    expect(lastOf(late.received, root.sessionId)?.snapshot?.context?.ticks).toBe(200);
  });

  it('waits for a viewer to have everything, or gives up when none comes', async () => {
    const relay = await startRelay();
    runCounter(relay, 5);
    expect(await relay.waitForViewer(50)).toBe(false);
    const waiting = relay.waitForViewer(30_000);
    const viewer = connect(relay);
    expect(await waiting).toBe(true);
    await relay.close();
    expect(await viewer.closed).toBe(1001);
    expect(viewer.received.some(isRootDone)).toBe(true);
  });

  it('names a bad limit', async () => {
    await expect(startInspectorRelay({ port: 0, maxClientMessageBytes: 0 })).rejects.toThrow(
      InspectorOptionError,
    );
    await expect(startInspectorRelay({ port: 0, recentEvents: 1.5 })).rejects.toThrow(
      'recentEvents must be a positive integer, got 1.5',
    );
  });

  it('never keeps Node alive after close, even with a viewer still connected', async () => {
    const script = [
      `import { createActor, createMachine } from 'xstate';`,
      `import { startInspectorRelay } from ${JSON.stringify(path.join(repoRoot, 'src/actors/inspection/inspectorRelay.ts'))};`,
      `const relay = await startInspectorRelay({ port: 0 });`,
      `process.stdout.write(relay.webSocketUrl + '\\n');`,
      `await relay.waitForViewer(30_000);`,
      `const actor = createActor(createMachine({ id: 'once', initial: 'a', states: { a: { on: { go: 'b' } }, b: { type: 'final' } } }), { inspect: relay.inspect });`,
      `actor.start();`,
      `actor.send({ type: 'go' });`,
      `await relay.close();`,
    ].join('\n');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const url = await new Promise<string>((resolve) => {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        if (stdout.includes('\n')) resolve(stdout.trim());
      });
    });
    const received: StatelyMessage[] = [];
    const socket = new WebSocket(url);
    socket.on('message', (data: Buffer) => received.push(JSON.parse(data.toString('utf8'))));
    const closed = new Promise<number>((resolve) =>
      socket.on('close', (code: number) => resolve(code)),
    );
    // The viewer never closes on its own: only the relay may end the connection.
    expect(await exited).toEqual({ code: 0, signal: null });
    clearTimeout(killer);
    expect(stderr).toBe('');
    expect(await closed).toBe(1001);
    expect(received.at(-1)).toMatchObject({
      type: '@xstate.snapshot',
      snapshot: { status: 'done' },
    });
  });
});
