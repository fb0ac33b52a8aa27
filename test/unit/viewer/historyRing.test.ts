import { describe, expect, it } from 'vitest';
import { HistoryRing } from '../../../src/viewer/historyRing.js';

describe('HistoryRing', () => {
  it('keeps the last `capacity` items, oldest first, and counts what it let go', () => {
    const ring = new HistoryRing<number>(3);
    for (let n = 1; n <= 8; n++) ring.push(n);
    expect(ring.toArray()).toEqual([6, 7, 8]);
    expect(ring.size).toBe(3);
    expect(ring.dropped).toBe(5);
  });

  it('holds fewer items before it fills', () => {
    const ring = new HistoryRing<string>(4);
    ring.push('a');
    ring.push('b');
    expect(ring.toArray()).toEqual(['a', 'b']);
    expect(ring.dropped).toBe(0);
  });

  it('refuses a capacity below 1', () => {
    expect(() => new HistoryRing(0)).toThrow('a ring holds at least 1 item, got 0');
  });
});
