import { describe, expect, it } from 'vitest';
import {
  CanonicalJsonError,
  canonicalJson,
  sha256Hex,
} from '../../../src/domain/shared/canonicalJson.js';

describe('canonicalJson', () => {
  it('sorts keys and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'] })).toBe('{"a":[true,null,"x"],"b":1}');
  });

  it('rejects non-finite numbers by default, naming where they are', () => {
    expect(() => canonicalJson({ m: { x: Number.NaN } })).toThrowError(CanonicalJsonError);
    expect(() => canonicalJson({ m: { x: Number.NaN } })).toThrowError(/\$\.m\.x/);
  });

  it('tags non-finite numbers when asked, so equal inputs give equal text', () => {
    const a = canonicalJson({ x: Number.NaN, y: -Infinity }, { nonFinite: 'tag' });
    expect(a).toBe('{"x":"__nan__","y":"__-inf__"}');
    expect(canonicalJson({ y: -Infinity, x: Number.NaN }, { nonFinite: 'tag' })).toBe(a);
  });

  it('hashes with sha256', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
