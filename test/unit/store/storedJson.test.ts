import { describe, expect, it } from 'vitest';
import { decodeStoredJson, encodeStoredJson } from '../../../src/ports/store/storedJson.js';

describe('stored JSON', () => {
  it('writes canonical JSON, so equal values give equal text', () => {
    expect(encodeStoredJson({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
    expect(encodeStoredJson({ a: [true, null], b: 1 })).toBe(
      encodeStoredJson({ b: 1, a: [true, null] }),
    );
  });

  it('brings non-finite numbers back as numbers', () => {
    const value = { nan: Number.NaN, up: Infinity, down: -Infinity, list: [Number.NaN] };
    expect(decodeStoredJson(encodeStoredJson(value))).toEqual(value);
  });

  it('leaves strings that only look like object members alone', () => {
    expect(decodeStoredJson(encodeStoredJson({ name: 'toString', other: '__proto__' }))).toEqual({
      name: 'toString',
      other: '__proto__',
    });
  });
});
