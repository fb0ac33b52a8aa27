import { randomBytes } from 'node:crypto';
import { connect as connectTcp, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createActor, setup } from 'xstate';
import {
  type InspectorRelay,
  startInspectorRelay,
} from '../../../src/actors/inspection/inspectorRelay.js';

// A real relay on 127.0.0.1; stalled viewers are raw TCP sockets that do the WebSocket
// handshake and then never read again, a reading viewer is a real `ws` client.

/** A machine that takes `tick` events, each carrying a padding string (its message is ~1.6 KB). */
const ticker = setup({
  types: { events: {} as { type: 'tick'; n: number; pad: string } },
}).createMachine({ id: 'ticker', on: { tick: {} } });

const relays: InspectorRelay[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});

/** Connect, do the WebSocket handshake, then stop reading: the socket's buffers fill and stay full. */
function stalledViewer(relay: InspectorRelay): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(relay.port, '127.0.0.1');
    sockets.push(socket);
    let response = '';
    socket.on('error', () => {});
    socket.once('connect', () =>
      socket.write(
        `GET / HTTP/1.1\r\nHost: 127.0.0.1:${relay.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    const onData = (chunk: Buffer) => {
      response += chunk.toString('latin1');
      if (!response.includes('\r\n\r\n')) return;
      socket.removeListener('data', onData);
      socket.pause();
      if (response.startsWith('HTTP/1.1 101')) resolve(socket);
      else reject(new Error(`handshake refused: ${response.split('\r\n')[0]}`));
    };
    socket.on('data', onData);
  });
}

/** A viewer that reads everything, counting the tick events it was sent. */
function readingViewer(relay: InspectorRelay) {
  const socket = new WebSocket(relay.webSocketUrl);
  const ticks: number[] = [];
  let closed = false;
  const waiters = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as { type: string; event?: { n?: number } };
    if (message.type === '@xstate.event' && message.event?.n !== undefined) {
      ticks.push(message.event.n);
    }
    for (const waiter of waiters) waiter();
  });
  socket.on('close', () => {
    closed = true;
  });
  const opened = new Promise<void>((resolve) => socket.once('open', () => resolve()));
  const untilTicks = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (ticks.length >= count) {
          waiters.delete(check);
          resolve();
        }
      };
      waiters.add(check);
      check();
    });
  return { opened, ticks, untilTicks, isClosed: () => closed };
}

describe('the inspector relay and viewers that stop reading', () => {
  it('drops each stalled viewer once past the bound, while a reading viewer gets every event and the unread bytes stay bounded', async () => {
    const bound = 256 * 1024;
    const relay = await startInspectorRelay({ port: 0, maxViewerBufferBytes: bound });
    relays.push(relay);
    const stalledCount = 10;
    const stalled = await Promise.all(
      Array.from({ length: stalledCount }, () => stalledViewer(relay)),
    );
    const reader = readingViewer(relay);
    await reader.opened;
    expect(relay.connectedClients).toBe(stalledCount + 1);

    const actor = createActor(ticker, { inspect: relay.inspect });
    actor.start();
    const pad = 'x'.repeat(1500);
    const batch = 100;
    let sent = 0;
    let mostUnread = 0;
    // bounded by a count of batches (~24 MB in all), never by a time
    for (let round = 0; round < 150 && relay.connectedClients > 1; round++) {
      for (let index = 0; index < batch; index++) actor.send({ type: 'tick', n: sent++, pad });
      await reader.untilTicks(sent);
      mostUnread = Math.max(mostUnread, relay.unreadBytes);
    }
    actor.stop();

    expect(relay.connectedClients).toBe(1);
    expect(relay.droppedViewers).toBe(stalledCount);
    // the reader got every event, in order, and is still connected
    expect(reader.ticks).toEqual(Array.from({ length: sent }, (_, n) => n));
    expect(reader.isClosed()).toBe(false);
    // at most the bound and one message per stalled viewer, and the reader's last batch
    const oneMessage = 2 * 1024;
    expect(mostUnread).toBeLessThanOrEqual(
      stalledCount * (bound + oneMessage) + batch * oneMessage,
    );
    expect(relay.unreadBytes).toBeLessThanOrEqual(batch * oneMessage);
    // what a dropped viewer sees: once it reads again, what reached it, then its connection ends
    await Promise.all(
      stalled.map(
        (socket) =>
          new Promise<void>((resolve) => {
            socket.once('close', () => resolve());
            socket.on('data', () => {});
            socket.resume();
          }),
      ),
    );
  });

  it('refuses a maxViewerBufferBytes that is not a positive integer', async () => {
    await expect(startInspectorRelay({ port: 0, maxViewerBufferBytes: 0 })).rejects.toThrow(
      'maxViewerBufferBytes must be a positive integer, got 0',
    );
  });
});
