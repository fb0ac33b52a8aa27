import { describe, expect, it } from 'vitest';
import { subKeyOrder } from '../../../src/domain/definition/index.js';
import { orderedKeys } from '../../../src/domain/definition/keyOrder.js';

describe('subKeyOrder', () => {
  it('re-roots the pointers of a subtree and drops the rest', () => {
    const keyOrder = {
      '': ['scenario', 'definition'],
      '/scenario': ['b', '3'],
      '/scenario/b': ['x'],
      '/scenarios': ['nope'],
      '/definition': ['include'],
    };
    expect(subKeyOrder(keyOrder, '/scenario')).toEqual({ '': ['b', '3'], '/b': ['x'] });
  });

  it('returns the key order itself for the root pointer', () => {
    const keyOrder = { '': ['a'] };
    expect(subKeyOrder(keyOrder, '')).toBe(keyOrder);
  });
});

describe('orderedKeys', () => {
  it('puts declared keys first, then keys the declaration does not know', () => {
    expect(orderedKeys({ '3': 1, b: 2, c: 3 }, '', { '': ['b', 'gone', '3'] })).toEqual([
      'b',
      '3',
      'c',
    ]);
  });

  it('falls back to Object.keys order without a declaration', () => {
    expect(orderedKeys({ b: 1, '3': 2 }, '/x', { '': ['b'] })).toEqual(['3', 'b']);
  });
});
