import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import {
  LiveEventLine,
  LiveSnapshotLine,
  messageJson,
} from '../../../src/viewer/inspectionMessages.js';
import { startViewer } from '../../../src/viewer/startViewer.js';

describe('live lines', () => {
  it('write the message a page is sent, payload JSON-safe and redacted, when asked (the text is not kept)', () => {
    let reads = 0;
    const event = {
      type: 'login',
      user: 'ada',
      apiKey: 'k-123',
      get header() {
        reads += 1;
        return 'Bearer abc.def';
      },
    };
    const line = new LiveEventLine(3, 12.34567, 'x:1', event, 'x:0');
    expect(reads).toBe(0);
    const text = messageJson(line);
    expect(JSON.parse(text)).toEqual({
      k: 'event',
      seq: 3,
      at: 12.346,
      sid: 'x:1',
      type: 'login',
      payload: { type: 'login', user: 'ada', apiKey: '[redacted]', header: '[redacted]' },
      source: 'x:0',
    });
    expect(reads).toBe(1);
    expect(messageJson(line)).toBe(text);
    expect(reads).toBe(2);
    expect(JSON.stringify([line])).toBe(`[${text}]`);
  });

  it('write a snapshot with its state value', () => {
    const line = new LiveSnapshotLine(4, 1, 'x:1', 'go', { running: 'acting' }, 'active');
    expect(JSON.parse(messageJson(line))).toEqual({
      k: 'snapshot',
      seq: 4,
      at: 1,
      sid: 'x:1',
      event: 'go',
      value: { running: 'acting' },
      status: 'active',
    });
  });

  it('a viewer with no page connected never reads an event payload', async () => {
    const viewer = await startViewer({ port: 0, history: 50 });
    try {
      let reads = 0;
      const toggle = createMachine({
        id: 'toggle',
        initial: 'off',
        states: { off: { on: { flip: 'on' } }, on: { on: { flip: 'off' } } },
      });
      const actor = createActor(toggle, { inspect: viewer.inspect }).start();
      for (let flip = 0; flip < 10; flip++) {
        actor.send({
          type: 'flip',
          get detail() {
            reads += 1;
            return flip;
          },
        } as { type: 'flip' });
      }
      expect(reads).toBe(0);
      expect(viewer.keptMessages).toBe(1 + 2 + 20);
      actor.stop();
    } finally {
      await viewer.close();
    }
  });
});
