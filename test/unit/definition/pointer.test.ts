import { describe, expect, it } from 'vitest';
import {
  buildPointer,
  escapePointerToken,
  getAtPointer,
  JsonPointerError,
  parsePointer,
  setAtPointer,
  unescapePointerToken,
} from '../../../src/domain/definition/index.js';
import type { JsonValue } from '../../../src/domain/shared/json.js';

describe('RFC 6901 pointer tokens', () => {
  it('escapes ~ before /', () => {
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c');
    expect(escapePointerToken('~1')).toBe('~01');
  });

  it('unescapes ~1 before ~0, so ~01 stays a literal ~1', () => {
    expect(unescapePointerToken('a~1b~0c')).toBe('a/b~c');
    expect(unescapePointerToken('~01')).toBe('~1');
  });

  it('rejects a ~ that is not followed by 0 or 1', () => {
    expect(() => unescapePointerToken('a~2')).toThrowError(JsonPointerError);
  });

  it('builds and parses pointers, including the root and empty keys', () => {
    expect(buildPointer([])).toBe('');
    expect(buildPointer(['', 'a/b', '0'])).toBe('//a~1b/0');
    expect(parsePointer('//a~1b/0')).toEqual(['', 'a/b', '0']);
    expect(parsePointer('')).toEqual([]);
  });

  it('rejects a non-empty pointer without a leading slash', () => {
    expect(() => parsePointer('a/b')).toThrowError(/must be "" or start with "\/"/);
  });
});

describe('getAtPointer', () => {
  const tree: JsonValue = { m: { '3': [['Hospital', 0.427]] }, '': 1, 'a/b': { '~': 2 } };

  it('reads nested mappings, lists, empty keys and escaped keys', () => {
    expect(getAtPointer(tree, '/m/3/0/1')).toBe(0.427);
    expect(getAtPointer(tree, '/')).toBe(1);
    expect(getAtPointer(tree, '/a~1b/~0')).toBe(2);
    expect(getAtPointer(tree, '')).toBe(tree);
  });

  it('gives undefined where the pointer leads nowhere', () => {
    expect(getAtPointer(tree, '/m/3/1')).toBeUndefined();
    expect(getAtPointer(tree, '/m/3/01')).toBeUndefined();
    expect(getAtPointer(tree, '/m/constructor')).toBeUndefined();
    expect(getAtPointer(tree, '/m/3/0/1/x')).toBeUndefined();
  });
});

describe('setAtPointer', () => {
  it('returns a new tree and leaves the input untouched, sharing untouched branches', () => {
    const before = { a: { b: [1, 2] }, c: { d: 3 } };
    const after = setAtPointer(before, '/a/b/1', 5) as typeof before;
    expect(after).toEqual({ a: { b: [1, 5] }, c: { d: 3 } });
    expect(before).toEqual({ a: { b: [1, 2] }, c: { d: 3 } });
    expect(after.c).toBe(before.c);
    expect(Object.isFrozen(after.a.b)).toBe(true);
  });

  it('adds a missing last mapping key and appends at the list length', () => {
    expect(setAtPointer({ a: {} }, '/a/x', 1)).toEqual({ a: { x: 1 } });
    expect(setAtPointer([1], '/1', 2)).toEqual([1, 2]);
  });

  it('replaces the whole tree at the root pointer', () => {
    expect(setAtPointer({ a: 1 }, '', [7])).toEqual([7]);
  });

  it('names the pointer when a parent is missing or not a container', () => {
    expect(() => setAtPointer({ a: {} }, '/a/x/y', 1)).toThrowError(/"\/a\/x\/y".*no key "x"/);
    expect(() => setAtPointer({ a: 1 }, '/a/b', 1)).toThrowError(/is a number/);
    expect(() => setAtPointer([1], '/3', 1)).toThrowError(/not an index/);
  });

  it('sets an own "__proto__" key without touching the prototype', () => {
    const after = setAtPointer({}, '/__proto__', 1) as Record<string, unknown>;
    expect(Object.keys(after)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(after)).toBe(Object.prototype);
  });
});
