import { describe, expect, it } from 'vitest';
import { HistoryRing } from '../../../src/viewer/historyRing.js';
import { messageJson } from '../../../src/viewer/inspectionMessages.js';

const seqs = (ring: HistoryRing): number[] => ring.lines().map((line) => line.seq);

describe('HistoryRing', () => {
  it('keeps the last `capacity` events and snapshots, oldest first, and counts what it let go', () => {
    const ring = new HistoryRing('x:0', 3);
    for (let seq = 1; seq <= 8; seq++) ring.keepEvent(seq, seq, { type: 'tick', seq }, null);
    expect(seqs(ring)).toEqual([6, 7, 8]);
    expect(ring.size).toBe(3);
    expect(ring.dropped).toBe(5);
  });

  it('holds fewer before it fills', () => {
    const ring = new HistoryRing('x:0', 4);
    ring.keepEvent(1, 1, { type: 'a' }, null);
    ring.keepEvent(2, 2, { type: 'b' }, null);
    expect(seqs(ring)).toEqual([1, 2]);
    expect(ring.dropped).toBe(0);
  });

  it('makes each line from its slot, with what XState gave', () => {
    const ring = new HistoryRing('x:1', 2);
    ring.keepEvent(3, 1.5, { type: 'go', apiKey: 'k' }, 'x:0');
    ring.keepSnapshot(4, 1.6, 'go', { running: 'acting' }, 'active');
    const [event, snapshot] = ring.lines();
    expect(messageJson(ring.newest()!)).toBe(messageJson(snapshot!));
    expect(JSON.parse(messageJson(event!))).toEqual({
      k: 'event',
      seq: 3,
      at: 1.5,
      sid: 'x:1',
      type: 'go',
      payload: { type: 'go', apiKey: '[redacted]' },
      source: 'x:0',
    });
    expect(JSON.parse(messageJson(snapshot!))).toMatchObject({
      event: 'go',
      value: { running: 'acting' },
      status: 'active',
    });
  });

  it('keeps the newest snapshot after its slot was let go, and whether it is final', () => {
    const ring = new HistoryRing('x:0', 2);
    ring.keepSnapshot(1, 1, 'stop', 'stopped', 'done');
    for (let seq = 2; seq < 6; seq++) ring.keepEvent(seq, seq, { type: 'late' }, null);
    expect(seqs(ring)).toEqual([1, 4, 5]);
    expect(ring.finished).toBe(true);
    ring.keepSnapshot(6, 6, 'again', 'idle', 'active');
    expect(seqs(ring)).toEqual([5, 6]);
    expect(ring.finished).toBe(false);
  });

  it('refuses a capacity below 1', () => {
    expect(() => new HistoryRing('x:0', 0)).toThrow('a ring holds at least 1 item, got 0');
  });
});
