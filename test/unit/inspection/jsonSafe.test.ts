import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { toJsonSafe } from '../../../src/actors/inspection/inspection.js';

describe('toJsonSafe', () => {
  it('tags non-finite numbers like canonical JSON and keeps finite ones', () => {
    expect(
      toJsonSafe({
        a: Number.NaN,
        b: Number.POSITIVE_INFINITY,
        c: Number.NEGATIVE_INFINITY,
        d: -0.5,
      }),
    ).toEqual({ a: '__nan__', b: '__inf__', c: '__-inf__', d: -0.5 });
  });

  it('leaves no live object: errors, dates, functions, maps, sets, bigints, binary', () => {
    function callback() {}
    expect(
      toJsonSafe({
        error: new RangeError('too far'),
        at: new Date(0),
        callback,
        map: new Map([['k', 1]]),
        set: new Set([1, 2]),
        big: 10n,
        bytes: new Uint8Array(3),
        gone: undefined,
        list: [undefined, 1],
      }),
    ).toEqual({
      error: { name: 'RangeError', message: 'too far' },
      at: '1970-01-01T00:00:00.000Z',
      callback: '[function callback]',
      map: [['k', 1]],
      set: [1, 2],
      big: '10',
      bytes: '[binary 3 bytes]',
      list: [null, 1],
    });
  });

  it('writes an actor ref as its session id', () => {
    const actor = createActor(createMachine({ id: 'tiny' }));
    expect(toJsonSafe({ ref: actor })).toEqual({ ref: { $actor: actor.sessionId } });
  });

  it('cuts cycles, deep nesting and long strings', () => {
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    expect(toJsonSafe(cycle)).toEqual({ name: 'loop', self: '[circular]' });
    expect(toJsonSafe({ a: { b: { c: 1 } } }, { maxDepth: 2 })).toEqual({
      a: { b: '[depth limit]' },
    });
    expect(toJsonSafe('abcdef', { maxStringLength: 3 })).toBe('abc…');
    const shared = { x: 1 };
    expect(toJsonSafe([shared, shared])).toEqual([{ x: 1 }, { x: 1 }]);
  });
});
