import { describe, expect, it } from 'vitest';
import { drawOrder, drawSeedOf } from '../../../src/domain/stats/drawOrder.js';
import { StatisticsInputError } from '../../../src/domain/stats/errors.js';
import { reorderBuffer } from '../../../src/domain/stats/reorderBuffer.js';

describe('drawOrder', () => {
  it('is a permutation of the cases, the same for the same seed', () => {
    const order = drawOrder(1000, 42);
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(drawOrder(1000, 42)).toEqual(order);
    expect(drawOrder(1000, 43)).not.toEqual(order);
  });

  it('puts each case first about equally often', () => {
    const firsts = new Array<number>(5).fill(0);
    for (let seed = 0; seed < 5000; seed++) firsts[drawOrder(5, seed)[0]!]!++;
    for (const count of firsts) expect(Math.abs(count - 1000)).toBeLessThan(150);
  });

  it('derives its default seed from the run id', () => {
    expect(drawSeedOf('judge-a')).toBe(drawSeedOf('judge-a'));
    expect(drawSeedOf('judge-a')).not.toBe(drawSeedOf('judge-b'));
  });

  it('refuses a count or seed it cannot use', () => {
    expect(() => drawOrder(-1, 1)).toThrow(StatisticsInputError);
    expect(() => drawOrder(3, 2 ** 32)).toThrow(/seed/);
  });
});

describe('reorderBuffer', () => {
  it('releases results in draw order whatever order they come in', () => {
    const buffer = reorderBuffer<number>();
    const released: number[] = [];
    for (const index of [3, 1, 0, 4, 2, 5]) released.push(...buffer.add(index, index * 10));
    expect(released).toEqual([0, 10, 20, 30, 40, 50]);
    expect(buffer.next).toBe(6);
    expect(buffer.waiting).toBe(0);
  });

  it('holds what ran ahead until the case before it comes in', () => {
    const buffer = reorderBuffer<string>(2);
    expect(buffer.add(3, 'd')).toEqual([]);
    expect(buffer.waiting).toBe(1);
    expect(buffer.add(2, 'c')).toEqual(['c', 'd']);
  });

  it('refuses an index given twice or already folded', () => {
    const buffer = reorderBuffer<string>();
    buffer.add(1, 'b');
    expect(() => buffer.add(1, 'b')).toThrow(StatisticsInputError);
    buffer.add(0, 'a');
    expect(() => buffer.add(0, 'a')).toThrow(/already taken/);
  });
});
